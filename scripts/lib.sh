# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Shell helpers shared by lsmconv's scripts.  Source it; it defines functions only.

# Repository root (this file lives in scripts/).
LSMCONV_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LSMCONV_ROOT

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

warn() {
	printf '%s: warning: %s\n' "${0##*/}" "$*" >&2
}

# progress STEP TOTAL MESSAGE: one line per step, on stderr.
progress() {
	printf '[%s/%s] %s\n' "$1" "$2" "$3" >&2
}

# is_kernel_tree DIR: true when DIR looks like a Linux source tree.
is_kernel_tree() {
	local d=$1
	[ -f "$d/Makefile" ] && [ -f "$d/Kconfig" ] && [ -d "$d/include/linux" ] &&
		[ -d "$d/security" ] && grep -q '^VERSION *=' "$d/Makefile" &&
		grep -q '^PATCHLEVEL *=' "$d/Makefile"
}

# require_kernel_tree DIR: die with a clear message unless DIR is a kernel tree.
require_kernel_tree() {
	local d=$1
	[ -d "$d" ] || die "$d: no such directory"
	is_kernel_tree "$d" ||
		die "$d: not a kernel tree (needs Makefile with VERSION/PATCHLEVEL, Kconfig, include/linux/, security/)"
}

# kernel_version DIR: "6.1.192" from the tree's Makefile.
kernel_version() {
	awk -F' *= *' '
		$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 } $1 == "EXTRAVERSION" { e = $2 }
		END { printf "%s.%s", v, p; if (s != "") printf ".%s", s; printf "%s\n", e }
	' "$1/Makefile"
}
