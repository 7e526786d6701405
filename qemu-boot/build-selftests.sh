#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build one of the tree's own kselftest suites statically, for the guest.
#
# usage: build-selftests.sh --tree DIR --suite NAME [--out DIR]
#
# UAPI headers are installed into build/headers/VERSION (never into the
# host's /usr), the suite is built with OUTPUT= outside the tree (default
# build/selftests/VERSION/NAME), and the tree stays clean.  VERSION is the
# tree's kernel version: the distro targets (6.1, 6.12) never share headers
# or binaries, which make would otherwise keep across trees, since the other
# tree's sources are older than the binaries.
# Prints the directory holding the test binaries.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

tree='' suite='' out=''
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) show_help ;;
	--tree) tree=${2:?}; shift 2 ;;
	--suite) suite=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	*) echo "usage: ${0##*/} --tree DIR --suite NAME [--out DIR]" >&2; exit 2 ;;
	esac
done
if [ -z "$tree" ] || [ -z "$suite" ]; then
	echo "usage: ${0##*/} --tree DIR --suite NAME" >&2
	exit 2
fi
require_kernel_tree "$tree"
tree=$(realpath "$tree")
src=$tree/tools/testing/selftests/$suite
[ -d "$src" ] || die_usage "$src: no such selftest suite"
version=$(kernel_version "$tree")
[ -n "$out" ] || out=$LSMCONV_ROOT/build/selftests/$version/$suite
mkdir -p "$out"
out=$(realpath "$out")
hdr=$LSMCONV_ROOT/build/headers/$version

if [ ! -f "$hdr/usr/include/linux/landlock.h" ] || [ "$tree/include/uapi" -nt "$hdr/.stamp" ]; then
	progress 1 2 "installing UAPI headers into $hdr"
	mkdir -p "$hdr"
	make -C "$tree" ARCH=x86_64 O="$hdr" headers_install >"$hdr/build.log" 2>&1 ||
		die_log "$hdr/build.log" "headers_install failed, see $hdr/build.log"
	touch "$hdr/.stamp"
fi
progress 2 2 "building selftests/$suite statically into $out"
if ! make -C "$src" OUTPUT="$out" KHDR_INCLUDES="-isystem $hdr/usr/include" \
	LDFLAGS=-static >"$out/build.log" 2>&1; then
	die_log "$out/build.log" "selftests/$suite failed to build, see $out/build.log"
fi
echo "$out"
