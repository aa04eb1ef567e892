"""Run the Raspberry Pi installer in a Debian arm64 userland under qemu-user, as a Pi would.

    sudo python tools/pi_userland.py [bookworm] [trixie] [--cache DIR] [--keep DIR]

For each release: a root file system made from Debian's arm64 packages by mmdebstrap (cached as
a tarball: built once, unpacked fresh for every run), this checkout copied into it as
/home/pi/riichi, `deploy/install.sh --user pi --camera demo --no-autologin` run in it as root
(twice: a rerun must succeed and change nothing that matters), the installed unit checked, then
the kiosk started the way the unit's ExecStart would (as its User, from its WorkingDirectory, with
its EnvironmentFile, from the venv the installer made), asked for `/` and `/api/state` over HTTP,
and made to read the demo camera's frame (POST /api/captures) as the hand `expected.json` says.
Every step is timed; the figures are printed at the end (under emulation: not a Pi's speed).

Systemd does not run in a chroot: the installer then only enables the service, and the unit is
checked by `systemd-analyze verify` inside the userland and by starting its ExecStart by hand.

Needs root, mmdebstrap, qemu-user-static with the kernel's binfmt_misc handler for aarch64
(`update-binfmts --display qemu-aarch64` says enabled, flags F), unshare (util-linux), and the
network to the Debian mirror and PyPI. `missing()` says what is absent, in words.

The scorer is installed as pure Python (SCORER_MYPYC=0): no C compile under emulation. Debian
packages are cached beside the tarballs, so a rerun downloads none; pip's cache is kept there too
(it stays empty behind a proxy that forbids caching PyPI's answers).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# The installed kiosk's checks are the sibling tools/pi_kiosk.py's, however this file is loaded
# (run as a script, or by tests/device/test_deploy_arm64.py from its path).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from pi_kiosk import check_kiosk, check_unit, free_port, say, start_kiosk  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RELEASES = ("bookworm", "trixie")
MIRROR = "http://deb.debian.org/debian"
CACHE = Path(os.environ.get("RIICHI_PI_CACHE", "/var/cache/riichi-pi"))
#: What a Raspberry Pi OS image has that the installer relies on and Debian's `apt` variant
#: lacks: systemd (systemctl, systemd-analyze), udev, sudo, passwd (useradd, usermod), Python,
#: certificates for PyPI. The installer itself adds python3-venv, pip, curl, the font, Chromium.
BASE_PACKAGES = ("ca-certificates", "passwd", "sudo", "systemd", "udev", "python3")
USER = "pi"
CHECKOUT = f"/home/{USER}/riichi"
BINFMT = Path("/proc/sys/fs/binfmt_misc/qemu-aarch64")
#: The emulated CPU: a Raspberry Pi 4's (qemu's default, `max`, has features no Pi has).
QEMU_CPU = "cortex-a72"
PI4_CPU = ("processor\t: {}\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\n"
           "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\n"
           "CPU part\t: 0xd08\nCPU revision\t: 3\n\n")
PI4_BOARD = "Hardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B (emulated)\n"


def missing() -> list[str]:
    """What this machine lacks to run the userland, each in words; empty when it has all."""
    out = []
    if os.geteuid() != 0:
        out.append("root (mmdebstrap, chroot and mounts need it)")
    for tool, package in (("mmdebstrap", "mmdebstrap"), ("unshare", "util-linux"),
                          ("chroot", "coreutils")):
        if not shutil.which(tool):
            out.append(f"{tool} (apt-get install {package})")
    if not BINFMT.exists():
        out.append(f"{BINFMT}: no aarch64 handler (apt-get install qemu-user-static "
                   "binfmt-support, with binfmt_misc mounted: mount -t binfmt_misc binfmt_misc "
                   "/proc/sys/fs/binfmt_misc && update-binfmts --enable qemu-aarch64)")
    else:
        text = BINFMT.read_text()
        if not text.startswith("enabled"):
            out.append(f"{BINFMT} is disabled (update-binfmts --enable qemu-aarch64)")
        flags = next((line.split(":", 1)[1].strip() for line in text.splitlines()
                      if line.startswith("flags:")), "")
        if "F" not in flags:
            out.append(f"{BINFMT} lacks flag F (the static qemu of qemu-user-static, fixed at "
                       "registration, so a chroot needs no qemu inside)")
    return out


def nice() -> list[str]:
    """CPU-heavy steps run at the lowest priority: the machine may be doing other work."""
    return ["nice", "-n", "19"] if shutil.which("nice") else []


def rootfs(release: str, cache: Path = CACHE, rebuild: bool = False) -> tuple[Path, float | None]:
    """The cached tarball of `release`'s arm64 userland, built when absent; with the seconds the
    build took (None when it was cached)."""
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / f"{release}-arm64.tar"
    if tarball.exists() and not rebuild:
        return tarball, None
    debs = cache / f"apt-{release}"
    debs.mkdir(exist_ok=True)
    partial = tarball.with_suffix(".tar.part")
    say(f"building the {release} arm64 userland into {tarball} (mmdebstrap, a few minutes)")
    started = time.monotonic()
    subprocess.run([
        *nice(), "mmdebstrap", "--quiet", "--arch=arm64", "--variant=apt",
        f"--include={','.join(BASE_PACKAGES)}",
        "--setup-hook=mkdir -p \"$1\"/var/cache/apt/archives",
        f"--setup-hook=sync-in {debs} /var/cache/apt/archives",
        f"--customize-hook=sync-out /var/cache/apt/archives {debs}",
        "--format=tar", release, str(partial), MIRROR], check=True)
    partial.rename(tarball)
    return tarball, time.monotonic() - started


@dataclass
class Userland:
    """An unpacked userland at `root`; commands run in it by chroot, each in its own mount
    namespace (proc, sys, dev and the download caches mounted there, gone when it ends)."""

    release: str
    root: Path
    cache: Path = CACHE
    figures: dict[str, float] = field(default_factory=dict)

    @classmethod
    def unpack(cls, release: str, tarball: Path, where: Path, cache: Path = CACHE) -> Userland:
        root = where / release
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)
        subprocess.run(["tar", "-xpf", str(tarball), "-C", str(root),
                        "--numeric-owner"], check=True)
        shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
        land = cls(release, root, cache)
        land.trust_host_cas()
        return land

    def trust_host_cas(self) -> None:
        """The host's own certificate authorities (/usr/local/share/ca-certificates: a proxy's,
        say) trusted inside too, or PyPI's certificate fails there where it passes here."""
        extra = Path("/usr/local/share/ca-certificates")
        crts = sorted(extra.rglob("*.crt")) if extra.is_dir() else []
        if not crts:
            return
        target = self.root / "usr/local/share/ca-certificates"
        for crt in crts:
            (target / crt.relative_to(extra)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(crt, target / crt.relative_to(extra))
        self.run(["update-ca-certificates"])

    def _mounts(self) -> str:
        debs = self.cache / f"apt-{self.release}"
        pip = self.cache / "pip"
        for path in (debs / "partial", pip):
            path.mkdir(parents=True, exist_ok=True)
        r = shlex.quote(str(self.root))
        return "; ".join([
            "set -e",
            f"mount -t proc proc {r}/proc",
            f"mount --rbind /sys {r}/sys",
            f"mount --rbind /dev {r}/dev",
            f"mkdir -p {r}/var/cache/apt/archives {r}/root/.cache/pip",
            f"mount --bind {shlex.quote(str(debs))} {r}/var/cache/apt/archives",
            f"mount --bind {shlex.quote(str(pip))} {r}/root/.cache/pip",
            f"mount --bind {shlex.quote(str(self.cpuinfo()))} {r}/proc/cpuinfo",
        ])

    def cpuinfo(self) -> Path:
        """A Raspberry Pi 4's /proc/cpuinfo (Cortex-A72), one entry per host CPU: qemu-user
        shows the host's x86 one, and onnxruntime's CPU probe crashes reading it."""
        path = self.root.parent / f"{self.release}-cpuinfo"
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
        cpus = max(cpus, os.cpu_count() or 1)
        path.write_text("".join(PI4_CPU.format(n) for n in range(cpus)) + PI4_BOARD)
        return path

    def command(self, argv: list[str], env: dict[str, str] | None = None) -> list[str]:
        """The host command that runs `argv` inside the userland (as root)."""
        env_args = [f"{k}={v}" for k, v in (env or {}).items()]
        inner = shlex.join(["chroot", str(self.root), "/usr/bin/env", "-i",
                            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                            "HOME=/root", "LANG=C.UTF-8", "DEBIAN_FRONTEND=noninteractive",
                            f"QEMU_CPU={QEMU_CPU}",
                            *env_args, *argv])
        return [*nice(), "unshare", "--mount", "--propagation", "private", "--",
                "sh", "-c", f"{self._mounts()}; exec {inner}"]

    def run(self, argv: list[str], env: dict[str, str] | None = None, timeout: float = 1800,
            check: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(self.command(argv, env), capture_output=True, text=True,
                                timeout=timeout)
        if check and result.returncode != 0:
            raise RuntimeError(f"{self.release}: {shlex.join(argv)} exited {result.returncode}"
                               f"\n--- stdout\n{result.stdout[-6000:]}"
                               f"\n--- stderr\n{result.stderr[-6000:]}")
        return result

    def timed(self, name: str, argv: list[str], log: Path, env: dict[str, str] | None = None,
              timeout: float = 1800) -> str:
        """Run `argv`, its output into `log`; figures: the whole run as `name`, and each of the
        installer's steps (its `== ` lines) as `name: step`. Returns the output."""
        started = step_started = time.monotonic()
        step = ""
        lines = []
        with log.open("w") as out:
            process = subprocess.Popen(self.command(argv, env), stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, text=True, errors="replace")
            assert process.stdout is not None
            for line in process.stdout:
                out.write(line)
                lines.append(line)
                if line.startswith("== "):
                    now = time.monotonic()
                    if step:
                        self.figures[f"{name}: {step}"] = now - step_started
                        say(f"{self.release}: {name}: {step} {now - step_started:.0f} s")
                    step, step_started = line[3:].strip().split(" in ")[0], now
                if time.monotonic() - started > timeout:
                    process.kill()
            process.wait()
        now = time.monotonic()
        if step:
            self.figures[f"{name}: {step}"] = now - step_started
        self.figures[name] = now - started
        say(f"{self.release}: {name} {self.figures[name]:.0f} s")
        if process.returncode != 0:
            raise RuntimeError(f"{self.release}: {shlex.join(argv)} exited {process.returncode}"
                               f" (log {log}):\n{''.join(lines)[-8000:]}")
        return "".join(lines)

    def copy_checkout(self, source: Path = ROOT) -> None:
        """The checkout's files (tracked and new, not ignored ones) into /home/pi/riichi, owned
        by pi, as `git clone` on a Pi would leave them."""
        self.run(["useradd", "--create-home", "--shell", "/bin/bash", USER])
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                                 "--exclude-standard"], cwd=source, capture_output=True,
                                check=True).stdout.decode().split("\0")
        target = self.root / CHECKOUT.lstrip("/")
        for name in filter(None, listed):
            path = source / name
            if path.is_file():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target / name)
        self.run(["chown", "-R", f"{USER}:{USER}", CHECKOUT])


def install_args(port: int) -> list[str]:
    return ["bash", f"{CHECKOUT}/deploy/install.sh", "--user", USER, "--port", str(port),
            "--camera", "demo", "--no-autologin"]


def prove(release: str, where: Path, cache: Path = CACHE, rebuild: bool = False) -> Userland:
    """The whole proof for one release; the userland (with its figures) stays in `where`."""
    tarball, built = rootfs(release, cache, rebuild)
    started = time.monotonic()
    land = Userland.unpack(release, tarball, where, cache)
    if built is not None:
        land.figures["rootfs build"] = built
    land.copy_checkout()
    land.figures["unpack and copy"] = time.monotonic() - started
    port = free_port()
    # Pure-Python scorer (no C compile under emulation); pip trusts the system's certificates
    # (the venv's upgraded pip would otherwise use its own bundle, without the host's CAs).
    env = {"SCORER_MYPYC": "0", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PIP_CERT": "/etc/ssl/certs/ca-certificates.crt"}
    land.timed("install", install_args(port), where / f"{release}-install.log", env)
    again = land.timed("install again", install_args(port),
                       where / f"{release}-install-again.log", env)
    assert "keeping /etc/default/riichi-kiosk" in again, again
    verify = check_unit(land)
    if verify:
        say(f"{release}: systemd-analyze verify says: {verify}")
    kiosk = start_kiosk(land, port, where / f"{release}-kiosk.log")
    try:
        check_kiosk(land, port)
    finally:
        kiosk.stop()
    return land


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("releases", nargs="*", default=list(RELEASES), choices=RELEASES)
    parser.add_argument("--cache", type=Path, default=CACHE,
                        help=f"tarballs and download caches (default {CACHE}, or $RIICHI_PI_CACHE)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="unpack into this folder and leave it (default: a temporary one)")
    parser.add_argument("--rebuild", action="store_true", help="build the tarballs again")
    args = parser.parse_args(argv)
    if lacking := missing():
        parser.error("this machine lacks: " + "; ".join(lacking))
    where = args.keep or Path(tempfile.mkdtemp(prefix="pi-userland-", dir="/var/tmp"))
    where.mkdir(parents=True, exist_ok=True)
    try:
        lands = [prove(release, where, args.cache, args.rebuild) for release in args.releases]
    finally:
        if args.keep is None:
            shutil.rmtree(where, ignore_errors=True)
    for land in lands:
        print(land.release + ": " + ", ".join(f"{name} {seconds:.1f} s"
                                               for name, seconds in land.figures.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
