"""The kiosk's request class: a form refused for its shape says why (issue 35, item 4).

Werkzeug answers a bare 413 both for a body over MAX_CONTENT_LENGTH and for a form of too many
fields or too large a field, which the kiosk then worded as "the upload is too large (at most
12 MB)" for a 300 KB form of 3,000 fields. The fields are counted here first (the body is at
most MAX_CONTENT_LENGTH, already read whole by kiosk.serve.server), so the refusal names the reason.
"""

from __future__ import annotations

from flask import Request
from werkzeug.exceptions import RequestEntityTooLarge

from kiosk.errors import ApiError

MULTIPART, URLENCODED = "multipart/form-data", "application/x-www-form-urlencoded"


def fields_in(data: bytes, mimetype: str, boundary: str) -> int:
    """How many fields a form body holds (multipart: its parts; urlencoded: its pairs).

    >>> fields_in(b"a=1&b=2&c", URLENCODED, "")
    3
    >>> fields_in(b"--x\\r\\n\\r\\n1\\r\\n--x\\r\\n\\r\\n2\\r\\n--x--\\r\\n", MULTIPART, "x")
    2
    """
    if mimetype == MULTIPART:
        return max(data.count(b"--" + boundary.encode("latin-1")) - 1, 0)
    return data.count(b"&") + 1 if data else 0


class KioskRequest(Request):
    def _load_form_data(self) -> None:
        boundary = self.mimetype_params.get("boundary", "")
        limit = self.max_content_length
        if ("form" in self.__dict__ or self.mimetype not in (MULTIPART, URLENCODED)
                or (self.mimetype == MULTIPART and not boundary)
                or (limit is not None and (self.content_length or 0) > limit)):
            super()._load_form_data()  # not a form, or refused for its size as it says
            return
        fields = fields_in(self.get_data(cache=True), self.mimetype, boundary)
        most = self.max_form_parts
        if most is not None and fields > most:
            raise ApiError(413, f"the form has {fields:,} fields; the kiosk takes at most "
                           f"{most:,}", code="form_fields",
                           words={"fields": f"{fields:,}", "most": f"{most:,}"})
        try:
            super()._load_form_data()  # parses the cached body
        except RequestEntityTooLarge:
            most = self.max_form_memory_size or 0
            multipart = self.mimetype == MULTIPART
            raise ApiError(413, f"{'a field of the form' if multipart else 'the form'} is over "
                           f"{most:,} bytes", code="form_field_too_large" if multipart
                           else "form_too_large", words={"bytes": f"{most:,}"}) from None
