#!/usr/bin/env bash
# Install the Riichi table kiosk on a Raspberry Pi (Raspberry Pi OS Bookworm or Trixie with the
# labwc desktop): the app in a venv, a systemd service, Chromium in kiosk mode at login, desktop
# autologin without screen blanking, camera and serial permissions, /dev/riichi-display.
# Run from a checkout:  sudo deploy/install.sh [options]   (again after `git pull` to update)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
app_dir=$(dirname "$here")

usage() {
    cat <<USAGE
usage: sudo deploy/install.sh [options]

  --user NAME       desktop user that runs the kiosk (default: the user running sudo)
  --port N          web port of the kiosk (default 8080)
  --camera SPEC     auto, picamera, v4l2:0, demo or none (default auto)
  --display URL     serial display: /dev/riichi-display or none (default none)
  --serial VID:PID[:SERIAL]
                    match only this USB-serial adapter for /dev/riichi-display (see lsusb)
  --prefix DIR      where the venv goes (default /opt/riichi-kiosk)
  --no-autologin    leave boot behaviour, compositor and screen blanking as they are
  --no-apt          do not install Debian packages
  --dry-run         print what would be done, change nothing (no root needed)
  --render DIR      only write the files that would be installed into DIR (no root needed)
  -h, --help        this help

Run it again to update (after git pull): it keeps /etc/default/riichi-kiosk.
SCORER_MYPYC=0 (sudo SCORER_MYPYC=0 deploy/install.sh): the pure-Python scorer, no C compile.
Where systemd is not running (a chroot, an image being built) the service is only enabled.
USAGE
}

die() { echo "install.sh: $*" >&2; exit 2; }

user=${SUDO_USER:-}
port=8080
camera=auto
display=none
serial=""
prefix=/opt/riichi-kiosk
autologin=1
use_apt=1
dry_run=0
render_dir=""

while [ $# -gt 0 ]; do
    case "$1" in
        --user) user=${2:?--user needs a name}; shift 2 ;;
        --port) port=${2:?--port needs a number}; shift 2 ;;
        --camera) camera=${2:?--camera needs a spec}; shift 2 ;;
        --display) display=${2:?--display needs a URL}; shift 2 ;;
        --serial) serial=${2:?--serial needs VID:PID}; shift 2 ;;
        --prefix) prefix=${2:?--prefix needs a folder}; shift 2 ;;
        --no-autologin) autologin=0; shift ;;
        --no-apt) use_apt=0; shift ;;
        --dry-run) dry_run=1; shift ;;
        --render) render_dir=${2:?--render needs a folder}; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done

if [ -z "$user" ]; then
    if [ "$dry_run" = 1 ] || [ -n "$render_dir" ]; then user=pi; else die "give --user NAME"; fi
fi
[[ $user =~ ^[a-z_][a-z0-9_-]*$ ]] || die "--user: '$user' is not a user name"
if ! [[ $port =~ ^[0-9]+$ ]] || [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
    die "--port: '$port' is not a TCP port (1-65535)"
fi
[[ $camera =~ ^(auto|demo|none|picamera(:[0-9]+)?|v4l2:[A-Za-z0-9/._-]+|folder:/[A-Za-z0-9/._-]+)$ ]] \
    || die "--camera: '$camera' is not auto, demo, none, picamera[:N], v4l2:N or folder:PATH"
[[ $display =~ ^(none|/dev/[A-Za-z0-9/._-]+|socket://[A-Za-z0-9.:_-]+)$ ]] \
    || die "--display: '$display' is not none, /dev/... or socket://host:port"
[ -z "$serial" ] || [[ $serial =~ ^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}(:[A-Za-z0-9._-]+)?$ ]] \
    || die "--serial: '$serial' is not VID:PID or VID:PID:SERIAL (hex ids from lsusb)"
[[ $prefix =~ ^/[A-Za-z0-9/._-]+$ ]] || die "--prefix: '$prefix' is not an absolute path"

home=$(getent passwd "$user" 2>/dev/null | cut -d: -f6 || true)
home=${home:-/home/$user}
venv=$prefix/venv

serial_rule() {  # one udev line for the adapter VID:PID[:SERIAL]
    local vid pid sn
    IFS=: read -r vid pid sn <<<"$1"
    printf '# The adapter given to install.sh --serial %s\n' "$1"
    printf 'SUBSYSTEM=="tty", ATTRS{idVendor}=="%s", ATTRS{idProduct}=="%s", ' \
        "${vid,,}" "${pid,,}"
    [ -z "$sn" ] || printf 'ATTRS{serial}=="%s", ' "$sn"
    printf 'SYMLINK+="riichi-display", GROUP="dialout", MODE="0660"\n'
}

render() {  # every file the install puts on the system, into folder $1
    local out=$1
    mkdir -p "$out"
    sed -e "s|@USER@|$user|g" -e "s|@HOME@|$home|g" -e "s|@VENV@|$venv|g" \
        -e "s|@APP_DIR@|$app_dir|g" "$here/riichi-kiosk.service.in" >"$out/riichi-kiosk.service"
    sed -e "s|@PORT@|$port|g" -e "s|@CAMERA@|$camera|g" -e "s|@DISPLAY@|$display|g" \
        "$here/riichi-kiosk.env.in" >"$out/riichi-kiosk.env"
    if [ -n "$serial" ]; then
        serial_rule "$serial" >"$out/99-riichi-display.rules"
    else
        cp "$here/99-riichi-display.rules" "$out/99-riichi-display.rules"
    fi
    cp "$here/riichi-kiosk-browser" "$here/labwc-autostart" "$out/"
}

if [ -n "$render_dir" ]; then
    render "$render_dir"
    exit 0
fi

run() {  # run a command, or only show it with --dry-run
    if [ "$dry_run" = 1 ]; then printf '+ %s\n' "$*"; else "$@"; fi
}

[ "$dry_run" = 1 ] || [ "$(id -u)" = 0 ] || die "run as root: sudo $0 $*"
if [ "$dry_run" = 0 ]; then
    id "$user" >/dev/null 2>&1 || die "--user: no user '$user' on this system"
    runuser -u "$user" -- test -r "$app_dir/pyproject.toml" \
        || die "$user cannot read $app_dir: clone the project somewhere $user can read"
fi
if [ -r /etc/os-release ]; then
    # shellcheck source=/dev/null
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    case "$codename" in
        bookworm|trixie) ;;
        *) echo "install.sh: note: made for Raspberry Pi OS bookworm/trixie, this is '$codename'" ;;
    esac
fi

staged=$(mktemp -d)
trap 'rm -rf "$staged"' EXIT
render "$staged"

# grep without -q: it reads to the end, so apt-cache never dies of SIGPIPE (which pipefail
# would take for "no such package" once the output is long).
apt_has() { apt-cache policy "$1" 2>/dev/null | grep 'Candidate: [0-9]' >/dev/null; }

echo "== Debian packages"
if [ "$use_apt" = 1 ]; then
    # fonts-noto-cjk: the Japanese UI and the tile faces' kanji (萬, winds, 發, 中) need a CJK
    # font in Chromium; Noto Sans CJK JP leads the faces' font list and has a real bold.
    packages=(python3-venv python3-pip curl fonts-noto-cjk)
    # The package lists first: on a fresh system apt knows no package names yet.
    run apt-get update
    # Chromium is `chromium` on Debian and newer Raspberry Pi OS, `chromium-browser` before.
    if apt_has chromium || [ "$dry_run" = 1 ]; then packages+=(chromium)
    elif apt_has chromium-browser; then packages+=(chromium-browser)
    else die "no chromium package in this system's apt sources (apt-cache policy chromium)"
    fi
    # picamera2 comes only from Raspberry Pi's archive; the venv sees it through
    # --system-site-packages (OpenCV cannot open the CSI camera of a Pi 5).
    if apt_has python3-picamera2; then packages+=(python3-picamera2); fi
    # Without recommends: they would bring compilers, printing, Samba and Avahi to a kiosk
    # (a desktop image has what Chromium recommends already).
    run apt-get install -y --no-install-recommends "${packages[@]}"
fi

echo "== Python environment in $venv"
run python3 -m venv --system-site-packages "$venv"
run "$venv/bin/pip" install --upgrade pip
# Editable: the kiosk runs from this checkout (models, demo frames), and `git pull` updates it.
run "$venv/bin/pip" install --editable "$app_dir"
if python3 -c 'import picamera2' 2>/dev/null; then
    # Debian's simplejpeg is built against Debian's numpy; the venv's newer numpy needs the wheel.
    run "$venv/bin/pip" install --upgrade simplejpeg
fi

echo "== Permissions: $user in video and dialout"
groups_to_add=video,dialout
if getent group render >/dev/null; then groups_to_add+=,render; fi
run usermod -aG "$groups_to_add" "$user"

echo "== Files"
run install -m 0644 "$staged/riichi-kiosk.service" /etc/systemd/system/riichi-kiosk.service
if [ -e /etc/default/riichi-kiosk ]; then
    echo "keeping /etc/default/riichi-kiosk (your settings); new defaults: $staged/riichi-kiosk.env"
else
    run install -m 0644 "$staged/riichi-kiosk.env" /etc/default/riichi-kiosk
fi
run install -m 0644 "$staged/99-riichi-display.rules" /etc/udev/rules.d/99-riichi-display.rules
if [ "$dry_run" = 1 ] || [ -S /run/udev/control ]; then
    run udevadm control --reload-rules
    run udevadm trigger --subsystem-match=tty
else
    echo "udev is not running here (a chroot or an image being built): the rule applies at boot"
fi
run install -m 0755 "$staged/riichi-kiosk-browser" /usr/local/bin/riichi-kiosk-browser

autostart=$home/.config/labwc/autostart
echo "== Browser at login: $autostart"
if grep -qs 'riichi-kiosk: begin' "$autostart"; then
    echo "already there"
elif [ "$dry_run" = 1 ]; then
    printf '+ append %s to %s\n' "$here/labwc-autostart" "$autostart"
else
    install -d -o "$user" -g "$(id -gn "$user")" "$(dirname "$autostart")"
    cat "$staged/labwc-autostart" >>"$autostart"
    chown "$user:$(id -gn "$user")" "$autostart"
fi

if [ "$autologin" = 1 ]; then
    echo "== Desktop autologin (labwc), no screen blanking"
    if command -v raspi-config >/dev/null || [ "$dry_run" = 1 ]; then
        run raspi-config nonint do_wayland W3  # W3: labwc
        run raspi-config nonint do_boot_behaviour B4  # B4: desktop, logged in automatically
        run raspi-config nonint do_blanking 1  # 1: blanking off
    else
        echo "no raspi-config: set desktop autologin and turn screen blanking off by hand"
    fi
fi

echo "== Service"
# The dry run shows a booted Pi's steps. Where systemd is not running (a chroot, an image being
# built), the service is only enabled: it starts at the next boot.
if [ "$dry_run" = 1 ] || [ -d /run/systemd/system ]; then
    run systemctl daemon-reload
    run systemctl enable --now riichi-kiosk.service
else
    command -v systemctl >/dev/null || die "no systemctl: the kiosk service needs systemd"
    systemctl enable riichi-kiosk.service
    echo "systemd is not running here (a chroot?): riichi-kiosk.service is enabled, starts at boot"
fi
echo "Done. The kiosk serves http://127.0.0.1:$port/; reboot to start the browser full screen."
