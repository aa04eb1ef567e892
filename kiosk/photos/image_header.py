"""How big an uploaded photo may decode, and its size in words when it is refused.

A few hundred bytes of PNG can declare 50,000 x 50,000 pixels, and a JPEG can hide its real
frame header from a reader that walks markers differently from libjpeg (issue 35). So the bound
is the decoder's own: `kiosk/__init__.py` sets OpenCV's OPENCV_IO_MAX_IMAGE_PIXELS before cv2 is
loaded, and OpenCV refuses a bigger frame right after reading its header, before allocating it.
`decoder_bounded` checks that the bound took; `declared_size` only words the refusal. Only the
formats the kiosk accepts are decoded (JPEG, PNG, BMP, WebP); anything else is refused by name.
"""

from __future__ import annotations

import functools
import struct

MAX_PIXELS = 50_000_000  # a 50-megapixel phone photo; the finder sees 416 x 416 of it anyway


class ImageHeaderError(ValueError):
    """Not a JPEG, PNG, BMP or WebP file, or a header that cannot be read."""


def declared_size(data: bytes) -> tuple[int, int]:
    """(width, height) from the header of a JPEG, PNG, BMP or WebP file.

    >>> png = b"\\x89PNG\\r\\n\\x1a\\n" + b"\\0\\0\\0\\rIHDR"
    >>> declared_size(png + struct.pack(">II", 50000, 40))
    (50000, 40)
    >>> declared_size(b"GIF89a...")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kiosk.photos.image_header.ImageHeaderError: the upload is not an image the kiosk reads ...
    """
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    if data[:2] == b"BM" and len(data) >= 26:
        if data[14:18] == b"\x0c\0\0\0":  # OS/2's 12-byte BITMAPCOREHEADER: 16-bit sizes
            return struct.unpack("<HH", data[18:22])
        width, height = struct.unpack("<ii", data[18:26])
        return abs(width), abs(height)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    raise ImageHeaderError("the upload is not an image the kiosk reads (JPEG, PNG, BMP or WebP)")


# start-of-frame markers: every SOFn but DHT (C4), JPG (C8) and DAC (CC)
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg_size(data: bytes) -> tuple[int, int]:
    # Markers are found as libjpeg finds them (jdmarker.c, next_marker): bytes other than FF are
    # skipped, FF FF is fill and FF 00 stuffed data, never a marker with a length.
    at = 2
    while True:
        at = data.find(b"\xff", at)
        while 0 <= at < len(data) - 1 and data[at + 1] == 0xFF:
            at += 1
        if at < 0 or at + 4 > len(data):
            break
        marker = data[at + 1]
        if marker in (0x00, 0x01, *range(0xD0, 0xD8)):  # stuffed zero, markers without a length
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if marker in _SOF and at + 9 <= len(data):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    raise ImageHeaderError("the JPEG upload has no readable frame header")


def _webp_size(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
        return width, height
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    raise ImageHeaderError("the WebP upload has no readable frame header")


def check_format(data: bytes) -> None:
    """ImageHeaderError unless `data` starts as a JPEG, PNG, BMP or WebP file does: OpenCV
    reads more formats than these, and none of the others is worth its decoder's risks."""
    if not (data[:8] == b"\x89PNG\r\n\x1a\n" or data[:2] in (b"\xff\xd8", b"BM")
            or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")):
        raise ImageHeaderError(
            "the upload is not an image the kiosk reads (JPEG, PNG, BMP or WebP)")


def check_pixels(data: bytes, limit: int = MAX_PIXELS) -> None:
    """ImageTooLarge when the header declares more than ``limit`` pixels: a quick refusal
    with the size in words, also of a header whose data is missing. Not the bound (a header
    can lie to this reader): OpenCV's own is (`decoder_bounded`)."""
    width, height = declared_size(data)
    if width * height > limit:
        raise ImageTooLarge(width, height, limit)


class ImageTooLarge(ValueError):
    """A photo of more pixels than the kiosk decodes; its size where the header tells it."""

    def __init__(self, width: int | None = None, height: int | None = None,
                 limit: int = MAX_PIXELS):
        most = f"the kiosk takes photos of at most {limit // 1_000_000} megapixels"
        super().__init__(f"the photo is {width:,} x {height:,} pixels; {most}"
                         if width and height else f"the photo has more pixels than {most}")
        self.width, self.height, self.limit = width, height, limit


def too_large(data: bytes, limit: int = MAX_PIXELS) -> ImageTooLarge:
    """The refusal of a photo the decoder found too large, with the header's size when the
    header tells one over the limit (else no size: a header that seems small has lied)."""
    try:
        width, height = declared_size(data)
    except ImageHeaderError:
        return ImageTooLarge(limit=limit)
    return ImageTooLarge(width, height, limit) if width * height > limit else ImageTooLarge(
        limit=limit)


def refused_by_bound(error: Exception) -> bool:
    """Whether a cv2.error is OpenCV refusing a frame over OPENCV_IO_MAX_IMAGE_* (its
    validateInputImageSize), not a broken file."""
    return "CV_IO_MAX_IMAGE" in str(error)


def png(width: int, height: int) -> bytes:
    """A small PNG file declaring any size: its header, a few compressed rows, its end
    (OpenCV reads the header of no PNG without its data)."""
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(64))) + chunk(b"IEND", b""))


@functools.cache
def decoder_bounded(limit: int = MAX_PIXELS) -> bool:
    """Whether OpenCV refuses a frame of ``limit + 1`` pixels from its header alone: false
    when cv2 was loaded before `kiosk/__init__.py` set the bound (then nothing is decoded)."""
    import cv2
    import numpy as np

    probe = png(10_000, limit // 10_000 + 1)
    try:
        cv2.imdecode(np.frombuffer(probe, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as e:
        return refused_by_bound(e)
    return False
