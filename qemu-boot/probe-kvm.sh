#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Decide once per machine whether KVM really works: boot KERNEL with -accel
# kvm and a trivial passing test under a short timeout.  Writes "kvm" or
# "tcg" to build/accel (read by run.sh --accel auto) and prints it.
# /dev/kvm can exist and still hang at "Booting from ROM" (qemu-boot.md).
#
# usage: probe-kvm.sh --kernel BZ --initrd CPIO
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

kernel='' initrd=''
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) show_help ;;
	--kernel) kernel=${2:?}; shift 2 ;;
	--initrd) initrd=${2:?}; shift 2 ;;
	*) echo "usage: ${0##*/} --kernel BZ --initrd CPIO" >&2; exit 2 ;;
	esac
done
out=$LSMCONV_ROOT/build/accel
if [ -f "$out" ]; then
	cat "$out"
	exit 0
fi
accel=tcg
if [ -w /dev/kvm ] && "$LSMCONV_ROOT/qemu-boot/run.sh" --accel kvm --timeout 15 \
	--kernel "$kernel" --initrd "$initrd" --log "$LSMCONV_ROOT/build/boot/kvm-probe.log" \
	--append "lsmtest=harness-pass" >/dev/null 2>&1; then
	accel=kvm
fi
echo "$accel" >"$out"
echo "$accel"
