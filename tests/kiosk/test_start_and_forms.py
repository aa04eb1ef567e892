"""Issue 35, item 4: a data directory the kiosk cannot use is one line and exit status 2, not a
traceback; a form refused for its fields says so, not "too large (at most 12 MB)"."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kiosk.conftest import Api

ROOT = Path(__file__).resolve().parents[2]


def start(data_dir: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIOSK_")}
    return subprocess.run([sys.executable, "-m", "kiosk", "--data-dir", data_dir,
                           "--camera", "none", "--port", "65099"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_a_data_dir_that_cannot_be_made_is_one_line_and_status_2() -> None:
    out = start("/proc/x")
    assert (out.returncode, out.stderr) == (
        2, "cannot use the data directory /proc/x: No such file or directory\n")


def test_a_read_only_data_dir_is_one_line_and_status_2(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        folder = "/sys"  # root writes through file modes; sysfs refuses new files
    else:
        folder = str(tmp_path / "ro")
        os.mkdir(folder, 0o555)
    out = start(folder)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr in {f"cannot use the data directory {folder}: {os.strerror(e)}\n"
                          for e in (errno.EACCES, errno.EROFS, errno.EPERM)}


def _multipart(fields: int, size: int) -> tuple[bytes, str]:
    parts = b"".join(b"--b0undary\r\nContent-Disposition: form-data; name=\"f%d\"\r\n\r\n%s\r\n"
                     % (i, b"x" * size) for i in range(fields))
    return parts + b"--b0undary--\r\n", "multipart/form-data; boundary=b0undary"


@pytest.mark.parametrize("path", ["/api/captures/upload", "/api/teach/photo"])
def test_a_form_of_3000_fields_is_refused_for_its_fields(api: Api, path: str) -> None:
    body, content_type = _multipart(3000, 40)
    assert 250_000 < len(body) < 350_000
    r = api.post(path, data=body, headers={"Content-Type": content_type})
    out = r.get_json()
    assert (r.status_code, out.get("code")) == (413, "form_fields"), out
    assert out["error"] == "the form has 3,000 fields; the kiosk takes at most 1,000"


def test_an_urlencoded_form_of_3000_fields_is_refused_for_its_fields(api: Api) -> None:
    body = "&".join(f"f{i}=x" for i in range(3000))
    r = api.post("/api/captures/upload", data=body,
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert (r.status_code, r.get_json()["error"]) == (
        413, "the form has 3,000 fields; the kiosk takes at most 1,000")


def test_a_form_field_over_the_form_memory_says_so(api: Api) -> None:
    body, content_type = _multipart(1, 600_000)
    r = api.post("/api/captures/upload", data=body, headers={"Content-Type": content_type})
    assert (r.status_code, r.get_json()["error"]) == (
        413, "a field of the form is over 500,000 bytes")


def test_a_photo_in_a_form_of_a_few_fields_still_uploads(api: Api) -> None:
    from tests.kiosk.conftest import DEMO_FRAME

    r = api.post("/api/captures/upload?x=1", data={"photo": (DEMO_FRAME.open("rb"), "h.jpg"),
                                                   "note": "a"}, content_type="multipart/form-data")
    assert r.status_code == 201 and r.get_json()["width"] == 640
