#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages lsmconv needs, only those missing (idempotent:
# a second run neither calls apt-get nor changes anything).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in -h | --help) show_help ;; esac
PACKAGES=(
	# tree (the chosen target, scripts/lib.sh) and conversion
	"$LSMCONV_DISTRO" xz-utils coccinelle libpython3-dev git python3 python3-pyflakes shellcheck
	# kernel builds
	gcc make bc flex bison libelf-dev libssl-dev cpio rsync ccache
	# tests: process-group checks of the signal cases (pgrep, ps)
	procps
	# guests
	qemu-system-x86 busybox-static libcap-dev
	# policies compiled on the host for the behaviour suite
	checkpolicy apparmor
)

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#PACKAGES[@]} packages present" >&2
	exit 0
fi
[ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}) and not root: install them with apt-get"
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
