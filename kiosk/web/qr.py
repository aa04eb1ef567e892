"""The QR code on the kiosk that opens the table on a phone (segno, inline SVG, no images)."""

from __future__ import annotations

import io
import socket
from functools import lru_cache

import segno

from kiosk.config import KioskConfig, is_loopback


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent: UDP connect only)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
    except OSError:
        return None


def table_url(config: KioskConfig, request_host_url: str) -> str:
    """What a phone should open: the configured public URL, else this host on the LAN."""
    if config.public_url:
        return config.public_url
    if config.host in ("0.0.0.0", "::"):
        address = lan_address()
        if address:
            return f"http://{address}:{config.port}/"
    if not is_loopback(config.host):
        return f"http://{config.host}:{config.port}/"
    return request_host_url


@lru_cache(maxsize=8)
def qr_svg(url: str) -> str:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, svgns=True, scale=4,
                                    border=2, dark="#000", light="#fff")
    return out.getvalue().decode("utf-8")
