"""The Pi installer proven (issue 37, item 5): `deploy/install.sh` run as root in Debian bookworm
and trixie arm64 userlands under qemu-user, built from Debian's packages by mmdebstrap. It
installs (and a rerun succeeds, keeping the settings); the unit is enabled and systemd-analyze
accepts it; the kiosk, started as the unit's ExecStart would from the venv the installer made,
serves `/` and `/api/state` and reads the demo camera's frame as the hand it shows.

The work is tools/pi_userland.py's (also runnable by hand, `sudo python tools/pi_userland.py`);
the figures of each run (rootfs build, install and its steps, kiosk start, a frame's read time,
all under emulation, not a Pi's) go to test-artifacts/pi-userland-RELEASE.json and the log.

Needs root, mmdebstrap, qemu-user-static registered with binfmt_misc (`.ci/run` installs them) and
the network to Debian's mirror and PyPI. Where the tools are missing the test skips saying which;
under CI (`CI` set) it fails instead. The arm64 tarballs and the download caches are kept in
/var/cache/riichi-pi (or $RIICHI_PI_CACHE): a second run builds no userland and downloads no
Debian package. RIICHI_PI_RELEASES (say `trixie`) proves only those releases.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = pytest.mark.slow


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pi_userland", ROOT / "tools" / "pi_userland.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


pi_userland = _load_tool()


def need_the_tools() -> None:
    lacking = pi_userland.missing()
    if lacking:
        message = "an arm64 userland under qemu-user needs: " + "; ".join(lacking)
        if os.environ.get("CI"):
            pytest.fail(f"{message}; CI must have them (.ci/run installs them)")
        pytest.skip(message)


#: The releases to prove (all by default); RIICHI_PI_RELEASES=trixie, say, to spend less CI time.
CHOSEN = os.environ.get("RIICHI_PI_RELEASES", " ".join(pi_userland.RELEASES)).replace(",", " ")


@pytest.mark.parametrize("release", pi_userland.RELEASES)
def test_the_installer_installs_and_the_kiosk_reads_the_demo_frame(release: str) -> None:
    if release not in CHOSEN.split():
        pytest.skip(f"RIICHI_PI_RELEASES={CHOSEN!r} leaves {release} out")
    need_the_tools()
    # Not pytest's tmp_path: a userland is a gigabyte and more, gone as soon as it is checked.
    where = Path(tempfile.mkdtemp(prefix="pi-userland-", dir="/var/tmp"))
    try:
        land = pi_userland.prove(release, where)
    except Exception:
        for log in sorted(where.glob("*.log")):
            print(f"--- {log.name}\n{log.read_text(errors='replace')[-6000:]}")
        raise
    finally:
        shutil.rmtree(where, ignore_errors=True)
    figures = {name: round(seconds, 1) for name, seconds in land.figures.items()}
    print(f"{release} arm64 under qemu-user: {json.dumps(figures)}")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"pi-userland-{release}.json").write_text(json.dumps(figures, indent=1) + "\n")
    assert {"install", "install again", "kiosk start", "frame read (request)"} <= set(figures)
