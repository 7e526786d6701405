#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build a gzip'ed cpio initramfs: busybox-static, the lsmconv guest init,
# lsmtest-exit, the guest tests of qemu-boot/guest/tests, and extra files.
#
# usage: build-initramfs.sh --out FILE [--add HOSTPATH:GUESTPATH]...
#
# The archive is reproducible (sorted names, fixed times) and written
# atomically: FILE is either the old archive or the complete new one.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	echo "usage: ${0##*/} --out FILE [--add HOSTPATH:GUESTPATH]..." >&2
	exit 2
}

out=''
adds=()
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) show_help ;;
	--out) out=${2:?}; shift 2 ;;
	--add) adds+=("${2:?}"); shift 2 ;;
	*) usage ;;
	esac
done
[ -n "$out" ] || usage
BUSYBOX=${BUSYBOX:-/bin/busybox}
[ -x "$BUSYBOX" ] || die_usage "$BUSYBOX missing (install busybox-static)"
case $(ldd "$BUSYBOX" 2>&1 || true) in
*'not a dynamic'*) ;;
*) die_usage "$BUSYBOX is not statically linked (install busybox-static)" ;;
esac

guest=$LSMCONV_ROOT/qemu-boot/guest
bindir=$LSMCONV_ROOT/build/guest-bin
mkdir -p "$bindir" "$(dirname "$out")"
if [ ! -x "$bindir/lsmtest-exit" ] || [ "$guest/lsmtest-exit.c" -nt "$bindir/lsmtest-exit" ]; then
	# A temporary name of its own: two suites may build it at once.
	gcc -static -O2 -Wall -Werror -o "$bindir/lsmtest-exit.$$" "$guest/lsmtest-exit.c"
	mv "$bindir/lsmtest-exit.$$" "$bindir/lsmtest-exit"
fi

stage=$(mktemp -d "$LSMCONV_ROOT/build/.initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,etc,lsmtest}
# The kernel opens /dev/console for init before anything is mounted.
mknod -m 0600 "$stage/dev/console" c 5 1 ||
	die_usage "cannot create dev/console (mknod needs root)"
cp "$BUSYBOX" "$stage/bin/busybox"
for applet in $("$BUSYBOX" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$stage/bin/$applet"
done
install -m 0755 "$guest/init" "$stage/init"
install -m 0755 "$guest/lsmtest-init" "$stage/sbin/lsmtest-init"
install -m 0755 "$bindir/lsmtest-exit" "$stage/bin/lsmtest-exit"
install -m 0755 "$guest"/tests/* "$stage/lsmtest/"
for a in "${adds[@]}"; do
	src=${a%%:*} dst=${a#*:}
	if [ "$src" = "$a" ] || [ -z "$dst" ]; then
		die_usage "--add $a: want HOSTPATH:GUESTPATH"
	fi
	[ -e "$src" ] || die_usage "--add $a: $src does not exist"
	mkdir -p "$stage/$(dirname "$dst")"
	cp -a "$src" "$stage/$dst"
done

find "$stage" -exec touch -h -d @0 {} +
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) | gzip -9n >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
