"""A game record's file name: the day the game started and its players, as a table finds its
files again (`2026-12-05-Alice-Bob-Carol-Dave.json`), not the store's id.

Each name is made safe for any file system: letters and digits of any script kept (NFKC, so a
full-width ``Ａ`` is ``A``), every run of anything else (spaces, ``#``, ``/``, ``-``, quotes,
control characters) one ``_``; a name with nothing left is its seat (``P2``). Each name is cut
to `NAME_PART` characters and `NAME_BYTES` bytes of UTF-8 (16 letters, 12 kanji), so four
names, the date and ``.json`` stay within 163 bytes, below the 255 file systems allow. A
browser takes the UTF-8 name (``filename*``, RFC 6266); an older one the ASCII fallback
(``filename``), where a name with no ASCII letter is its seat.

>>> stem("2026-12-05T20:04:00+00:00", ["Alice", "Bob #0042", "山田 太郎", "../x"], UTC)
'2026-12-05-Alice-Bob_0042-山田_太郎-x'
>>> print(disposition(stem("2026-12-05T20:04:00+00:00", ["Ann", "Bo", "山田", ""], UTC),
...                   "json").replace("; ", ";\\n"))
attachment;
filename="2026-12-05-Ann-Bo-P3-P4.json";
filename*=UTF-8''2026-12-05-Ann-Bo-%E5%B1%B1%E7%94%B0-P4.json
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo
from urllib.parse import quote

__all__ = ["NAME_BYTES", "NAME_PART", "UTC", "disposition", "stem"]

NAME_PART = 16  # characters of one player's name
NAME_BYTES = 36  # its UTF-8 bytes
_UNSAFE = re.compile(r"[\W_]+")  # \W: not a letter or digit of any script (nor _)


def _safe(name: str, seat: int) -> str:
    part = _UNSAFE.sub("_", unicodedata.normalize("NFKC", name)).strip("_")[:NAME_PART]
    while len(part.encode()) > NAME_BYTES:
        part = part[:-1]
    return part.strip("_") or f"P{seat + 1}"


def stem(created: str, players: Sequence[str], tz: tzinfo | None = None) -> str:
    """The file name without its extension: the day `created` (ISO 8601, as the store keeps
    it) falls on in `tz` (default the kiosk's own time zone), then each player."""
    day = datetime.fromisoformat(created).astimezone(tz).date().isoformat()
    return f"{day}-" + "-".join(_safe(name, seat) for seat, name in enumerate(players))


def disposition(file_stem: str, extension: str) -> str:
    """The Content-Disposition of a download named `file_stem.extension`."""
    pieces = file_stem.split("-")
    day, names = pieces[:3], pieces[3:]
    plain = [_safe(unicodedata.normalize("NFKD", n).encode("ascii", "ignore").decode(), seat)
             for seat, n in enumerate(names)]
    fallback = "-".join(day + plain)
    return (f'attachment; filename="{fallback}.{extension}"; '
            f"filename*=UTF-8''{quote(f'{file_stem}.{extension}', safe='')}")
