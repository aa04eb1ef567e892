"""An uploaded photo's size as its header declares it, read before anything is decoded.

A few hundred bytes of PNG can declare 50,000 x 50,000 pixels: decoding it would take seconds
and gigabytes, so the kiosk reads the header first and refuses what is too large. Only the
formats the kiosk accepts are read (JPEG, PNG, BMP, WebP); anything else is refused by name.
"""

from __future__ import annotations

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
    kiosk.image_header.ImageHeaderError: the upload is not an image the kiosk reads (JPEG, ...)
    """
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    if data[:2] == b"BM" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(width), abs(height)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    raise ImageHeaderError("the upload is not an image the kiosk reads (JPEG, PNG, BMP or WebP)")


# start-of-frame markers: every SOFn but DHT (C4), JPG (C8) and DAC (CC)
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg_size(data: bytes) -> tuple[int, int]:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            break
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
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


def check_pixels(data: bytes, limit: int = MAX_PIXELS) -> tuple[int, int]:
    """The declared size, or ImageTooLarge when it is over ``limit`` pixels."""
    width, height = declared_size(data)
    if width * height > limit:
        raise ImageTooLarge(
            f"the photo is {width} x {height} pixels; the kiosk takes photos of at most "
            f"{limit // 1_000_000} megapixels"
        )
    return width, height


class ImageTooLarge(ValueError):
    """A photo whose header declares more pixels than the kiosk decodes."""
