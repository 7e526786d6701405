#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build a tree with every LSM, then boot it once per stack variant
# (qemu-boot/variants.tsv) and check the active LSM list in the guest; the
# full-stack variant also runs the tree's own selftest suites (Landlock, and
# the LSM syscalls' where the tree has them: scripts/lib.sh,
# LSMCONV_SELFTESTS), one TAP line each with the suite's totals; a suite the
# tree lacks is a skip saying so.  Prints TAP.
#
# usage: boot-variants.sh --tree DIR [--variants FILE]
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

tree='' variants=$LSMCONV_ROOT/qemu-boot/variants.tsv
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) show_help ;;
	--tree) tree=${2:?}; shift 2 ;;
	--variants) variants=${2:?}; shift 2 ;;
	*) echo "usage: ${0##*/} --tree DIR [--variants FILE]" >&2; exit 2 ;;
	esac
done
[ -n "$tree" ] || { echo "usage: ${0##*/} --tree DIR" >&2; exit 2; }
require_kernel_tree "$tree"
tree=$(realpath "$tree")
name=$(lsm_kernel_name "$tree")
boot=$LSMCONV_ROOT/build/boot/$name
mkdir -p "$boot"

# has_suite SUITE: the tree has tools/testing/selftests/SUITE.
has_suite() {
	[ -d "$tree/tools/testing/selftests/$1" ]
}

# tap_section TAPFILE TEST: the guest's output of TEST, the lines between
# the result line before it and its own ("ok N - TEST", "not ok N - TEST #
# exit 1").  Empty when TEST never finished.
tap_section() {
	awk -v t="$2" '
		/^(not )?ok [0-9]+ - / {
			name = $0
			sub(/^(not )?ok [0-9]+ - /, "", name)
			sub(/ #.*/, "", name)
			if (name == t) printf "%s", buf
			buf = ""
			next
		}
		{ buf = buf $0 "\n" }' "$1"
}

# report_suite VARIANT SUITE TEST TAPFILE: one TAP line for the selftest
# SUITE that the guest test TEST ran on VARIANT, with its totals; the failed
# and skipped cases as diagnostics.
report_suite() {
	local vname=$1 suite=$2 test=$3 tap=$4 part totals rc
	n=$((n + 1))
	if ! has_suite "$suite"; then
		echo "ok $n - $suite selftests on $vname # SKIP $(kernel_version "$tree") has no tools/testing/selftests/$suite"
		return
	fi
	part=$tap.$suite
	tap_section "$tap" "$test" >"$part"
	totals=$("$LSMCONV_ROOT/qemu-boot/selftest-totals.sh" "$part") && rc=0 || rc=$?
	echo "# $suite selftests on $vname: $totals"
	[ "$rc" -eq 0 ] || grep -a -E "^(not )?ok [0-9]+ - $test( #.*)?$" "$tap" | sed 's/^/# guest test: /' || true
	grep -a -E '^# +not ok ' "$part" | sed 's/^/# failed: /' || true
	grep -a -E '^# +(ok|#).*SKIP' "$part" | sed 's/^/# skipped: /' || true
	if [ "$rc" -eq 0 ]; then
		echo "ok $n - $suite selftests on $vname ($totals)"
	else
		echo "not ok $n - $suite selftests on $vname ($totals)"
	fi
}

bz=$("$LSMCONV_ROOT/qemu-boot/build-kernel.sh" --tree "$tree" --name "$name")
initrd=$boot/initramfs.cpio.gz
adds=()
for st in $LSMCONV_SELFTESTS; do
	suite=${st%%:*}
	has_suite "$suite" || continue
	dir=$("$LSMCONV_ROOT/qemu-boot/build-selftests.sh" --tree "$tree" --suite "$suite")
	adds+=(--add "$dir:lsmtest/$suite.d")
done
"$LSMCONV_ROOT/qemu-boot/build-initramfs.sh" --out "$initrd" "${adds[@]}" >/dev/null
echo "# accelerator: $("$LSMCONV_ROOT/qemu-boot/probe-kvm.sh" --kernel "$bz" --initrd "$initrd")"

n=0 v=0
mapfile -t rows < <(grep -v '^#' "$variants" | grep -v '^\s*$')
echo "TAP version 13"
for row in "${rows[@]}"; do
	IFS=$'\t' read -r vname lsm want tests <<<"$row"
	n=$((n + 1)) v=$((v + 1))
	log=$boot/$vname.log
	progress "$v" "${#rows[@]}" "booting $name with lsm=$lsm" >&2
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
	for st in $LSMCONV_SELFTESTS; do
		case ",$tests," in
		*,"${st#*:}",*) report_suite "$vname" "${st%%:*}" "${st#*:}" "$log.tap" ;;
		esac
	done
done
echo "1..$n"
