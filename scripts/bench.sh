#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lsmconv benchmarks: figures, not pass/fail.
#
# usage: bench.sh [--tree DIR] [--skip-cold]
#
#   kernel build, cold     fresh O= directory, tinyconfig + base + lsm
#   kernel build, incr.    after touching security/security.c
#   boot to verdict        QEMU start to verdict line (harness-pass), 5 runs
#   initramfs size         base, and with the Landlock selftests
#   conversion             convert.sh over selinux/smack/tomoyo/apparmor/yama
#                          (when the converter and the baseline exist)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

tree=$LSMCONV_ROOT/build/linux-source-6.1 cold=1
while [ $# -gt 0 ]; do
	case $1 in
	--tree) tree=${2:?}; shift 2 ;;
	--skip-cold) cold=0; shift ;;
	*) echo "usage: ${0##*/} [--tree DIR] [--skip-cold]" >&2; exit 2 ;;
	esac
done
require_kernel_tree "$tree"
tree=$(realpath "$tree")
cd "$LSMCONV_ROOT"

now() { date +%s.%N; }
since() { printf '%.1f' "$(echo "$(now) - $1" | bc)"; }
row() { printf '| %-40s | %14s |\n' "$1" "$2"; }

echo "lsmconv bench, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB,"
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), tree $(kernel_version "$tree"), accel tcg"
echo
row "what" "figure"
row "----" "------"
if [ "$cold" -eq 1 ]; then
	rm -rf build/kernels/bench
	t=$(now)
	qemu-boot/build-kernel.sh --tree "$tree" --name bench >/dev/null 2>&1
	row "kernel build, cold (s)" "$(since "$t")"
	touch "$tree/security/security.c"
	t=$(now)
	qemu-boot/build-kernel.sh --tree "$tree" --name bench >/dev/null 2>&1
	row "kernel build, security.c touched (s)" "$(since "$t")"
	bz=build/kernels/bench/arch/x86/boot/bzImage
else
	bz=$(qemu-boot/build-kernel.sh --tree "$tree" --name lsm 2>/dev/null)
fi
row "bzImage size (KiB)" "$(($(stat -c %s "$bz") / 1024))"

base=build/bench/base.cpio.gz
mkdir -p build/bench
qemu-boot/build-initramfs.sh --out "$base" >/dev/null
row "initramfs, base (KiB)" "$(($(stat -c %s "$base") / 1024))"
ll=$(qemu-boot/build-selftests.sh --tree "$tree" --suite landlock 2>/dev/null)
adds=(--add "$ll:lsmtest/landlock.d")
full=build/bench/landlock.cpio.gz
qemu-boot/build-initramfs.sh --out "$full" "${adds[@]}" >/dev/null
row "initramfs, with Landlock selftests (KiB)" "$(($(stat -c %s "$full") / 1024))"

times=()
for _ in 1 2 3 4 5; do
	t=$(now)
	qemu-boot/run.sh --kernel "$bz" --initrd "$base" --log build/bench/boot.log \
		--append "lsmtest=harness-pass" >/dev/null
	times+=("$(since "$t")")
done
row "boot to verdict, 5 runs (s)" "$(printf '%s ' "${times[@]}")"
t=$(now)
qemu-boot/run.sh --kernel "$bz" --initrd "$full" --log build/bench/landlock.log \
	--append "lsmtest=landlock" >/dev/null || true
row "boot + Landlock selftests (s)" "$(since "$t")"

if [ -x ./convert.sh ] && [ -d build/baseline/.git ]; then
	rm -rf build/bench/converted
	t=$(now)
	if ./convert.sh tree build/baseline --out build/bench/converted --report build/bench/report.md \
		--allow-partial --jobs "$(nproc)" >build/bench/convert.log 2>&1; then
		row "convert.sh over the baseline's modules (s)" "$(since "$t")"
	else
		row "convert.sh over the baseline's modules" "failed: see build/bench/convert.log"
	fi
else
	row "convert.sh over the baseline's modules" "n/a: no build/baseline (make baseline)"
fi
