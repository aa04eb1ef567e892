"""A photo sent to the API (the win page's Upload, the teach page) or taken by the camera, each
refusal coded for a page in another language (kiosk/words/locale/)."""

from __future__ import annotations

from flask import request

from device.camera import CameraError
from kiosk.errors import ApiError
from kiosk.photos.camera import DecoderUnbounded, ImageTooSmall, Still, decode_upload
from kiosk.photos.image_header import ImageTooLarge
from kiosk.web.context import services


def sent() -> bytes | None:
    """The photo sent as multipart field `photo` or as an image/* body; None when it was not
    (the caller says what it takes instead: `missing`)."""
    file = request.files.get("photo")
    if file is not None:
        return file.read()
    if request.mimetype.startswith("image/"):
        return request.get_data()
    return None


def missing(message: str) -> ApiError:
    return ApiError(415, message, code="photo_missing")


def decoded(data: bytes, prefix: str = "") -> Still:
    """The photo decoded, or the refusal naming what is wrong with it (`prefix`: the field)."""
    try:
        return decode_upload(data)
    except ImageTooLarge as e:
        raise ApiError(413, prefix + str(e),
                       code="photo_too_large" if e.width else "photo_too_many_pixels", words={
                           "width": f"{e.width or 0:,}", "height": f"{e.height or 0:,}",
                           "most": e.limit // 1_000_000}) from None
    except DecoderUnbounded as e:
        raise ApiError(503, prefix + f"photos cannot be read: {e}",
                       code="photo_decoder_unbounded") from None
    except ImageTooSmall as e:
        raise ApiError(415, prefix + str(e), code="photo_too_small",
                       words={"width": e.width, "height": e.height}) from None
    except ValueError as e:
        raise ApiError(415 if data else 400, prefix + str(e),
                       code="photo_unreadable" if data else "photo_empty") from None


def from_camera() -> Still:
    """A still from the camera, or a 503 saying there is none."""
    try:
        return services().camera.capture()
    except CameraError as e:
        raise ApiError(503, f"no photo from the camera: {e}", code="camera_no_photo") from None
