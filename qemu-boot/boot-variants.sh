#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build a tree with every LSM, then boot it once per stack variant
# (qemu-boot/variants.tsv) and check the active LSM list in the guest; the
# full-stack variant also runs the tree's Landlock selftests.  Prints TAP.
#
# usage: boot-variants.sh --tree DIR [--variants FILE]
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

tree='' variants=$LSMCONV_ROOT/qemu-boot/variants.tsv
while [ $# -gt 0 ]; do
	case $1 in
	--tree) tree=${2:?}; shift 2 ;;
	--variants) variants=${2:?}; shift 2 ;;
	*) echo "usage: ${0##*/} --tree DIR [--variants FILE]" >&2; exit 2 ;;
	esac
done
[ -n "$tree" ] || { echo "usage: ${0##*/} --tree DIR" >&2; exit 2; }
require_kernel_tree "$tree"
tree=$(realpath "$tree")
name=lsm
[ "$tree" = "$(realpath "$LSMCONV_DISTRO_TREE")" ] || name=$(basename "$tree")-lsm
boot=$LSMCONV_ROOT/build/boot/$name
mkdir -p "$boot"

bz=$("$LSMCONV_ROOT/qemu-boot/build-kernel.sh" --tree "$tree" --name "$name")
ll=$("$LSMCONV_ROOT/qemu-boot/build-selftests.sh" --tree "$tree" --suite landlock)
initrd=$boot/initramfs.cpio.gz
adds=(--add "$ll:lsmtest/landlock.d")
"$LSMCONV_ROOT/qemu-boot/build-initramfs.sh" --out "$initrd" "${adds[@]}" >/dev/null
echo "# accelerator: $("$LSMCONV_ROOT/qemu-boot/probe-kvm.sh" --kernel "$bz" --initrd "$initrd")"

n=0
mapfile -t rows < <(grep -v '^#' "$variants" | grep -v '^\s*$')
echo "TAP version 13"
for row in "${rows[@]}"; do
	IFS=$'\t' read -r vname lsm want tests <<<"$row"
	n=$((n + 1))
	log=$boot/$vname.log
	progress "$n" "${#rows[@]}" "booting $name with lsm=$lsm" >&2
	start=$(date +%s.%N)
	verdict=$("$LSMCONV_ROOT/qemu-boot/run.sh" --kernel "$bz" --initrd "$initrd" --log "$log" \
		--append "lsm=$lsm lsmtest=$tests lsmtest.lsm=$want") && rc=0 || rc=$?
	secs=$(echo "$(date +%s.%N) - $start" | bc)
	echo "# $vname: $verdict (${secs%??????} s)"
	if [ "$rc" -eq 0 ]; then
		echo "ok $n - boot $vname: /sys/kernel/security/lsm = $want"
	else
		grep -a -A1 '^# want:' "$log.tap" | sed 's/^/# /' || true
		echo "not ok $n - boot $vname: $verdict"
	fi
	case ",$tests," in
	*,landlock,*)
		totals=$("$LSMCONV_ROOT/qemu-boot/landlock-totals.sh" "$log.tap") && ll_rc=0 || ll_rc=$?
		echo "# landlock selftests on $vname: $totals"
		grep -a -E '^# +(ok|#).*SKIP' "$log.tap" | sed 's/^/# skipped: /' || true
		n=$((n + 1))
		if [ "$ll_rc" -eq 0 ]; then
			echo "ok $n - landlock selftests on $vname ($totals)"
		else
			echo "not ok $n - landlock selftests on $vname ($totals)"
		fi
		;;
	esac
done
echo "1..$n"
