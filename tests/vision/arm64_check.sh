#!/usr/bin/env bash
# Run `python -m vision check-kernels` as a Raspberry Pi would: a Debian arm64 userland with the
# aarch64 wheels of onnxruntime, numpy and OpenCV, under qemu-user, for each CPU model given
# (default: cortex-a72 as in a Pi 4, no dot product; cortex-a76 as in a Pi 5, with it).
#
#   bash tests/vision/arm64_check.sh [--outputs-only] [FRAME ...]
#
# Needs root (debootstrap), qemu-user and debootstrap (apt-get install qemu-user debootstrap) and
# the package registries; the userland is kept in $ARM64_ROOT (default /var/tmp/riichi-arm64).
# Reference kernels under emulation are slow: a frame takes minutes, --outputs-only fewer.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=${ARM64_ROOT:-/var/tmp/riichi-arm64}
cpus=${ARM64_CPUS:-cortex-a72 cortex-a76}
pyver=3.11
wheels=(onnxruntime==1.32.0 numpy==2.4.6 opencv-python-headless==5.0.0.93 tqdm
        flatbuffers protobuf packaging coloredlogs humanfriendly sympy mpmath)

for tool in qemu-aarch64 debootstrap; do
    command -v "$tool" >/dev/null || { echo "error: $tool missing (apt-get install qemu-user debootstrap)" >&2; exit 2; }
done
if [ ! -x "$root/usr/bin/python$pyver" ]; then
    echo "building a Debian arm64 userland in $root" >&2
    debootstrap --arch=arm64 --foreign --variant=minbase --include=python3,libstdc++6,libgomp1 \
        bookworm "$root" http://deb.debian.org/debian >&2
    for deb in "$root"/var/cache/apt/archives/*.deb; do dpkg-deb -x "$deb" "$root"; done
fi
if [ ! -d "$root/site/onnxruntime" ]; then
    tmp=$(mktemp -d)
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version $pyver \
        --implementation cp --platform manylinux_2_28_aarch64 --platform manylinux_2_17_aarch64 \
        --platform manylinux2014_aarch64 -d "$tmp" "${wheels[@]}" >&2
    for whl in "$tmp"/*.whl; do python3 -m zipfile -e "$whl" "$root/site/"; done
    rm -rf "$tmp"
fi
# qemu-user 7 shows the host's /proc/cpuinfo and CPU topology, which onnxruntime's ARM CPU
# probe cannot parse; it reads these files from the userland instead (qemu's -L prefix).
mkdir -p "$root/proc" "$root/sys/devices/system/cpu"
for i in 0 1 2 3; do
    printf 'processor\t: %s\nFeatures\t: fp asimd evtstrm crc32 cpuid\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd08\nCPU revision\t: 3\n\n' "$i"
done > "$root/proc/cpuinfo"
for f in possible present online; do echo 0-3 > "$root/sys/devices/system/cpu/$f"; done

status=0
for cpu in $cpus; do
    echo "== qemu-aarch64 -cpu $cpu" >&2
    PYTHONPATH="$root/site:$PWD" qemu-aarch64 -cpu "$cpu" -L "$root" "$root/usr/bin/python$pyver" \
        -m vision check-kernels "$@" || status=1
done
exit $status
