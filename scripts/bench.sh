#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lsmconv benchmarks: figures, not pass/fail.
#
# usage: bench.sh [--tree DIR] [--skip-cold] [--only SECTION[,SECTION...]]
#
# Sections (default: all, in this order): kernel (build, bzImage), boot
# (initramfs sizes, boot times), targets (every other distro target: cold
# build and boot), convert (baseline and 2 MB conversions),
# port, verify (series and make verify), hookcost (needs verify's kernels),
# v21 (make v21 on the 4.0 tree, when ../shared has it), fuzz (the
# converter's fuzzer, tests/robustness/fuzz.py).
#
#   kernel build, cold     fresh O= directory, tinyconfig + base + lsm
#   kernel build, incr.    after touching security/security.c
#   boot to verdict        QEMU start to verdict line (harness-pass), 5 runs
#   other targets          the same cold build and boots on 6.12's tree
#   initramfs size         base, and with the Landlock selftests
#   conversion             convert.sh over selinux/smack/tomoyo/apparmor/yama,
#                          with each step's wall and user seconds (--profile)
#                          (when the converter and the baseline exist), and
#                          over a generated 2 MB legacy module
#   port                   convert.sh port on one module, and make port's
#                          whole run (convert, build, boot) cold (no seed,
#                          ccache off) and seeded from the lsm kernel (the
#                          kernel section builds it)
#   series, make verify    convert.sh series, then verify/pipeline.sh on it in
#                          a fresh work dir, with each step's time
#   make v21               scripts/v21.sh in a fresh work dir, each step's time
#   fuzzer                 tests/robustness/fuzz.py run: 200 generated modules
#                          (seed 29) converted twice and checked
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

SECTIONS="kernel boot targets convert port verify hookcost v21 fuzz"
tree=$LSMCONV_DISTRO_TREE cold=1 only=''
usage() { echo "usage: ${0##*/} [--tree DIR] [--skip-cold] [--only SECTION[,SECTION...]] (sections: $SECTIONS)" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--tree) tree=${2:?}; shift 2 ;;
	--skip-cold) cold=0; shift ;;
	--only) only=${2:?}; shift 2 ;;
	-h | --help) show_help ;;
	*) usage ;;
	esac
done
for s in ${only//,/ }; do
	case " $SECTIONS " in *" $s "*) ;; *) echo "${0##*/}: unknown section $s" >&2; usage ;; esac
done
# want SECTION: run it (no --only, or named there)
want() { [ -z "$only" ] || case ",$only," in *",$1,"*) true ;; *) false ;; esac; }
require_kernel_tree "$tree"
tree=$(realpath "$tree")
cd "$LSMCONV_ROOT"

now() { date +%s.%N; }
since() { printf '%.1f' "$(echo "$(now) - $1" | bc)"; }
row() { printf '| %-40s | %14s |\n' "$1" "$2"; }

echo "lsmconv bench, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(awk '/^MemTotal:/ { printf "%d", $2 / 1048576 }' /proc/meminfo) GiB,"
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), tree $(kernel_version "$tree"), accel tcg"
echo
mkdir -p build/bench
row "what" "figure"
row "----" "------"
# cold_build TREE NAME: the lsm kernel (tinyconfig + base + lsm) of TREE in
# a fresh object directory with ccache off; prints the seconds.
cold_build() {
	local t
	rm -rf "build/kernels/$2" "$(kbuild_objdir "$1" "$2")"
	t=$(now)
	CCACHE_DISABLE=1 qemu-boot/build-kernel.sh --tree "$1" --name "$2" >/dev/null 2>&1
	since "$t"
}

# boot_runs BZIMAGE INITRD: five boots to the verdict line (harness-pass);
# prints the seconds of each.
boot_runs() {
	local t times=()
	for _ in 1 2 3 4 5; do
		t=$(now)
		qemu-boot/run.sh --kernel "$1" --initrd "$2" --log build/bench/boot.log \
			--append "lsmtest=harness-pass" >/dev/null
		times+=("$(since "$t")")
	done
	printf '%s ' "${times[@]}"
}

bz=''
if want kernel && [ "$cold" -eq 1 ]; then
	row "kernel build, cold, ccache off (s)" "$(cold_build "$tree" bench)"
	touch "$tree/security/security.c"
	t=$(now)
	qemu-boot/build-kernel.sh --tree "$tree" --name bench >/dev/null 2>&1
	row "kernel build, security.c touched (s)" "$(since "$t")"
	# The same build in a new object directory, served by ccache (filled
	# by this run's build with ccache on, or an earlier one).
	rm -rf build/kernels/bench "$(kbuild_objdir "$tree" bench)"
	qemu-boot/build-kernel.sh --tree "$tree" --name lsm >/dev/null 2>&1 || true
	t=$(now)
	hit=$(qemu-boot/build-kernel.sh --tree "$tree" --name bench 2>&1 >/dev/null |
		sed -n 's/.*ccache: \([0-9]* of [0-9]*\) compilations.*/\1/p')
	row "kernel build, new object dir, ccache warm (s)" "$(since "$t")"
	row "  ccache hits (compilations)" "${hit:-none}"
	bz=build/kernels/bench/arch/x86/boot/bzImage
elif want kernel || want boot; then
	bz=$(qemu-boot/build-kernel.sh --tree "$tree" --name lsm 2>/dev/null)
fi
! want kernel || row "bzImage size (KiB)" "$(($(stat -c %s "$bz") / 1024))"

bench_boot() {
	base=build/bench/base.cpio.gz
	mkdir -p build/bench
	qemu-boot/build-initramfs.sh --out "$base" >/dev/null
	row "initramfs, base (KiB)" "$(($(stat -c %s "$base") / 1024))"
	ll=$(qemu-boot/build-selftests.sh --tree "$tree" --suite landlock 2>/dev/null)
	adds=(--add "$ll:lsmtest/landlock.d")
	full=build/bench/landlock.cpio.gz
	qemu-boot/build-initramfs.sh --out "$full" "${adds[@]}" >/dev/null
	row "initramfs, with Landlock selftests (KiB)" "$(($(stat -c %s "$full") / 1024))"

	row "boot to verdict, 5 runs (s)" "$(boot_runs "$bz" "$base")"
	t=$(now)
	qemu-boot/run.sh --kernel "$bz" --initrd "$full" --log build/bench/landlock.log \
		--append "lsmtest=landlock" >/dev/null || true
	row "boot + Landlock selftests (s)" "$(since "$t")"
}
! want boot || bench_boot

bench_targets() {
	# Every other distro target (6.12) beside the default: the same lsm
	# kernel cold (ccache off), its size, and five boots to the verdict.
	local tv tt secs tbz base=build/bench/base.cpio.gz
	mkdir -p build/bench
	[ -f "$base" ] || qemu-boot/build-initramfs.sh --out "$base" >/dev/null
	for tv in $LSMCONV_TARGETS; do
		[ "$tv" != "$LSMCONV_TARGET" ] || continue
		tt=$(target_tree "$tv")
		if [ ! -f "$tt/include/linux/lsm_hook_defs.h" ]; then
			row "$tv: kernel build and boot" "n/a: no tree (make tree TARGET=$tv)"
			continue
		fi
		if [ "$cold" -eq 1 ]; then
			if ! secs=$(cold_build "$tt" "bench-$tv"); then
				row "$tv: kernel build, cold" "failed: qemu-boot/build-kernel.sh --tree $tt"
				continue
			fi
			row "$tv: kernel build, cold, ccache off (s)" "$secs"
			tbz=build/kernels/bench-$tv/arch/x86/boot/bzImage
		elif ! tbz=$(qemu-boot/build-kernel.sh --tree "$tt" --name lsm 2>/dev/null); then
			row "$tv: kernel build" "failed: qemu-boot/build-kernel.sh --tree $tt"
			continue
		fi
		row "$tv: bzImage size (KiB)" "$(($(stat -c %s "$tbz") / 1024))"
		row "$tv: boot to verdict, 5 runs (s)" "$(boot_runs "$tbz" "$base")"
	done
}
! want targets || bench_targets

# profile_rows FILE: one row per step of a convert.sh --profile file (wall
# and user seconds; user is the CPU of the step's spatch processes).
profile_rows() {
	local step wall user _sys
	while IFS=$'\t' read -r step wall user _sys; do
		[ "$step" != step ] || continue
		row "  ${step%.cocci}, wall / user (s)" "$wall / $user"
	done <"$1"
}

bench_convert() {
	if [ -x ./convert.sh ] && [ -d build/baseline/.git ]; then
		rm -rf build/bench/converted
		t=$(now)
		if ./convert.sh tree build/baseline --out build/bench/converted --report build/bench/report.md \
			--allow-partial --jobs "$(nproc)" --profile build/bench/convert.prof \
			>build/bench/convert.log 2>&1; then
			row "convert.sh over the baseline's modules (s)" "$(since "$t")"
			profile_rows build/bench/convert.prof
		else
			row "convert.sh over the baseline's modules" "failed: see build/bench/convert.log"
		fi
	else
		row "convert.sh over the baseline's modules" "n/a: no build/baseline (make baseline)"
	fi

	# Scale (issue 12): one generated legacy module of 2 MB (scripts/gen-legacy-module.py:
	# every unguarded int hook of the tree, helpers up to the size), convert.sh file.
	big=build/bench/legacy-2mb.c
	python3 scripts/gen-legacy-module.py --tree "$tree" --bytes 2000000 --out "$big" 2>build/bench/gen.log
	rm -rf build/bench/legacy-2mb.out
	t=$(now)
	if ./convert.sh file "$big" --target "$tree" --out build/bench/legacy-2mb.out \
		--report build/bench/legacy-2mb.md --profile build/bench/legacy-2mb.prof \
		>build/bench/legacy-2mb.log 2>&1; then
		row "convert.sh file, 2 MB generated module (s)" "$(since "$t")"
		profile_rows build/bench/legacy-2mb.prof
	else
		row "convert.sh file, 2 MB generated module" "failed: see build/bench/legacy-2mb.log"
	fi
}
! want convert || bench_convert

bench_port() {
	# Porting one module (issue 13, 27): tests/port-boot's uidopen, the
	# conversion alone, then make port's whole run on its finished/ port
	# (conversion, the build of the tree with it, boot, the listing and its
	# guest test), cold (a fresh object directory, no seed, ccache off;
	# not with --skip-cold) and seeded from the target's lsm kernel (the
	# kernel section builds it; make kernel), each in a fresh work directory.
	local mod=tests/port-boot/modules/uidopen rc t w seed
	rm -rf build/bench/port-convert
	t=$(now)
	rc=0
	./convert.sh port "$mod/legacy" --name uidopen --target "$tree" --out build/bench/port-convert \
		>build/bench/port-convert.log 2>&1 || rc=$?
	if [ "$rc" -le 1 ]; then	# 1: todos left, as uidopen has
		row "convert.sh port, one module (s)" "$(since "$t")"
	else
		row "convert.sh port, one module" "failed (exit $rc): see build/bench/port-convert.log"
	fi
	seed=$(kbuild_objdir "$tree" "$(lsm_kernel_name "$tree")")
	for w in port-cold port-seeded; do
		if [ $w = port-cold ] && [ "$cold" = 0 ]; then
			row "make port, one module, cold" "skipped (--skip-cold)"
			continue
		fi
		if [ $w = port-seeded ] && [ ! -f "$seed/arch/x86/boot/bzImage" ]; then
			row "make port, one module, seeded" "skipped: no lsm kernel of the tree (make kernel)"
			continue
		fi
		rm -rf "build/bench/$w" "build/kernels/$w-target"
		t=$(now)
		rc=0
		if [ $w = port-cold ]; then
			LSMCONV_PORT_SEED=0 CCACHE_DISABLE=1 verify/port.sh --target "$tree" --baseline none \
				--work "build/bench/$w" --finished "$mod" >"build/bench/$w.log" 2>&1 || rc=$?
		else
			verify/port.sh --target "$tree" --baseline none --work "build/bench/$w" \
				--finished "$mod" >"build/bench/$w.log" 2>&1 || rc=$?
		fi
		if [ $rc = 0 ]; then
			row "make port, one module, ${w#port-}: convert+build+boot (s)" "$(since "$t")"
			[ $w = port-cold ] ||	# ccache off: no count
				row "  its kernel: compilations, from ccache" \
					"$(sed -n 's/.*ccache: \([0-9]*\) of \([0-9]*\) compilations.*/\2, \1/p' "build/bench/$w.log" | tail -n 1)"
		else
			row "make port, one module, ${w#port-}" "failed (exit $rc): see build/bench/$w.log"
		fi
		rm -rf "build/bench/$w/target-tree" "build/kernels/$w-target"
	done
}
! want port || bench_port

bench_verify() {
	# The main job's own steps: the series from the baseline, then make verify
	# on it (a fresh work dir: cold builds), per step from its summary table.
	if [ -d build/baseline/.git ]; then
		t=$(now)
		if ./convert.sh series --out build/bench/series --work build/bench/series-work \
			>build/bench/series.log 2>&1; then
			row "convert.sh series (5 patches) (s)" "$(since "$t")"
			rm -rf build/bench/verify
			t=$(now)
			verify/pipeline.sh --baseline build/baseline --series build/bench/series --distro "$tree" \
				--work build/bench/verify >build/bench/verify.log 2>&1 || true
			row "make verify, cold, all 5 steps (s)" "$(since "$t")"
			# summary rows: "N  title  result  SECONDSs  detail"
			grep -E '^[1-5] ' build/bench/verify.log | while read -r n rest; do
				secs=$(grep -oE ' [0-9]+s ' <<<" $rest " | head -n 1 | tr -d ' s')
				res=$(grep -oE '\b(pass|fail|skip)\b' <<<"$rest" | head -n 1)
				row "  verify step $n ($res) (s)" "${secs:-?}"
			done
		else
			row "convert.sh series" "failed: see build/bench/series.log"
		fi
	else
		row "convert.sh series / make verify" "n/a: no build/baseline (make baseline)"
	fi
}
! want verify || bench_verify

bench_hookcost() {

	# What stacking costs per hook call (verify/hookcost): the baseline's one
	# vector against the converted tree's lists, on the kernels make verify just
	# built (same configuration: baseline.config), and the full stack (lsm.config).
	vec=$(find build/bench/verify/kernels -maxdepth 1 -name 'baseline-*.bzImage' 2>/dev/null | head -n 1)
	lists=build/bench/verify/converted.bzImage
	stack=build/bench/verify/converted/.lsmconv-obj-stack/arch/x86/boot/bzImage
	full=$(awk -F'\t' '$1 == "selinux" { print $2 }' qemu-boot/variants.tsv)
	if [ -n "$vec" ] && [ -f "$lists" ] && [ -f "$stack" ] && [ -n "$full" ]; then
		if verify/hookcost/hookcost.sh --work build/bench/hookcost --boots 3 \
			--run vector-selinux "$vec" "security=selinux" \
			--run lists-selinux "$lists" "lsm=yama,selinux" \
			--run lists-fullstack "$stack" "lsm=$full" \
			--compare lists-selinux vector-selinux --compare lists-fullstack vector-selinux \
			>build/bench/hookcost.txt 2>build/bench/hookcost.log; then
			echo
			echo "hook-call cost (ns per call under TCG; spread = the 3 boots around their median;"
			echo "/getpid = against the no-hook control; compare = ratio of those ratios):"
			sed 's/^/    /' build/bench/hookcost.txt
		else
			row "hook-call cost" "failed: see build/bench/hookcost.log"
		fi
	else
		row "hook-call cost" "n/a: make verify's kernels are missing (see build/bench/verify.log)"
	fi
}
! want hookcost || bench_hookcost

bench_v21() {
	# make v21: the 4.0 tree stacked in its own version, compared with v21,
	# built and booted; a fresh work dir (its kernels cold unless ccache has
	# them), each step's time from its summary.
	local src=$LSMCONV_ROOT/../shared/trees/linux-4.0-v21base.tar.xz t
	if [ ! -f "$src" ]; then
		row "make v21" "n/a: no $src"
		return
	fi
	rm -rf build/bench/v21
	t=$(now)
	scripts/v21.sh --work build/bench/v21 >build/bench/v21.log 2>&1 || true
	row "make v21, fresh work dir (s)" "$(since "$t")"
	# summary rows: "N  name  result  SECONDSs  detail"
	grep -E '^[1-4] ' build/bench/v21.log | while read -r n name res secs _; do
		row "  v21 step $n $name ($res) (s)" "${secs%s}"
	done
}
! want v21 || bench_v21

bench_fuzz() {
	# the fuzzer of make check's tests/robustness, with its defaults (seed
	# 29, 200 cases) against the distro tree: generation, two convert.sh
	# tree runs and the checks
	local t rc=0
	rm -rf build/bench/fuzz
	mkdir -p build/bench/fuzz
	t=$(now)
	python3 tests/robustness/fuzz.py run --target "$tree" --work build/bench/fuzz \
		--json build/bench/fuzz/fuzz.json >build/bench/fuzz.log 2>&1 || rc=$?
	row "fuzzer, 200 cases (s)" "$(since "$t")"
	row "  fuzzer exit (0: no case failed)" "$rc"
}
! want fuzz || bench_fuzz
