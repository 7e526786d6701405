#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tests of the rewind (cocci/rewind/rewind.sh): bad input, a deliberately
# wrong baseline that the checks must catch, the baseline itself (no
# hook-list API left, every cap_* call in place), reproducibility (a second
# run changes nothing; the committed series is what the rules produce), and,
# when a kernel can be built, the baseline kernel booted once per major
# module with security=: exactly that module initialised, capabilities
# enforced as in the stacked kernel (verify/'s capability suite).
#
# Prints TAP 13.  LSMCONV_REWIND_BOOT=0 skips the kernel build and boots;
# LSMCONV_REWIND_MUTANT_BOOT=1 also builds and boots the wrong baseline and
# requires the capability suite to fail on it (one more kernel build).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
# shellcheck source=tests/lib.sh
. tests/lib.sh

src=${TREE:-$LSMCONV_DISTRO_TREE}
t=build/rewind-test
# Its own baseline: build/baseline (make baseline, tests/lib.sh make_baseline)
# is read by suites that may run at the same time (tests/run.sh's lanes); this
# suite rewrites its output, a deliberately wrong one first.
base=$t/baseline
rw=cocci/rewind/rewind.sh
# the baseline kernel's fragments (scripts/lib.sh), as build-kernel.sh options
bfrags=()
while IFS= read -r f; do bfrags+=(--fragment "$f"); done < <(baseline_fragments)
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() {	# check DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@"; then ok "$d"; else nok "$d"; fi
}
finish() {
	echo "1..$n"
	[ "$fails" -eq 0 ]
	exit
}

echo "TAP version 13"
if ! command -v spatch >/dev/null; then
	skip "rewind" "spatch not installed"
	finish
fi
if ! is_kernel_tree "$src" 2>/dev/null; then
	skip "rewind" "$src: no kernel tree (run make tree)"
	finish
fi
rm -rf "$t"
mkdir -p "$t"

# 1. Bad input: a clear error naming the path, nothing written.
mkdir -p "$t/not-a-kernel"
echo hello >"$t/not-a-kernel/README"
if "$rw" --tree "$t/not-a-kernel" --out "$t/bad-out" --series "$t/bad-series" 2>"$t/bad.err"; then
	nok "rewind refuses a directory that is not a kernel tree (it succeeded)"
elif grep -q "not-a-kernel" "$t/bad.err" && [ ! -e "$t/bad-out" ] && [ ! -e "$t/bad-series" ]; then
	ok "rewind refuses a non-kernel tree, names it, writes nothing: $(head -1 "$t/bad.err")"
else
	nok "rewind's error on a non-kernel tree: $(head -1 "$t/bad.err")"
fi

# 2. The checks can fail: a baseline without the cap_* calls is caught.
if "$rw" --tree "$src" --out "$base" --series "$t/series-mutant" --skip-step capchain >"$t/mutant.log" 2>&1; then
	if python3 tests/rewind/capcheck.py "$src" "$base" >"$t/capcheck-mutant.txt"; then
		nok "capcheck accepts a baseline without cap_* calls"
	else
		ok "capcheck catches a baseline without cap_* calls ($(tail -1 "$t/capcheck-mutant.txt"))"
	fi
	mutant_ok=true
else
	nok "rewind --skip-step capchain failed (see $t/mutant.log)"
	tap_tail "$t/mutant.log"
	mutant_ok=false
fi
if [ "${LSMCONV_REWIND_MUTANT_BOOT:-0}" = 1 ] && $mutant_ok; then
	mutant_bz=$(qemu-boot/build-kernel.sh --tree "$base" --name baseline-mutant \
		"${bfrags[@]}" 2>"$t/mutant-build.log") ||
		mutant_bz=''
fi

# 3. The baseline.
start=$(date +%s)
if "$rw" --tree "$src" --out "$base" --series "$t/series1" >"$t/run1.log" 2>&1; then
	ok "rewind.sh produces $base and $(find "$t/series1" -name '*.patch' | wc -l) patches ($(($(date +%s) - start)) s)"
else
	nok "rewind.sh failed (see $t/run1.log)"
	tap_tail "$t/run1.log"
	tail -5 "$t/run1.log" | sed 's/^/# /'
	finish
fi
grep -a '^\[' "$t/run1.log" | sed 's/^/# /'

# 4. No hook-list API left in the rewound files.
files=(include/linux/security.h include/linux/lsm_hooks.h security/security.c
	security/commoncap.c security/capability.c security/selinux/hooks.c
	security/smack/smack_lsm.c security/tomoyo/tomoyo.c security/apparmor/lsm.c
	security/yama/yama_lsm.c)
left=$(cd "$base" && grep -n -E 'security_hook_list|LSM_HOOK_INIT|call_int_hook|call_void_hook|security_add_hooks' "${files[@]}")
if [ -z "$left" ]; then
	ok "no security_hook_list/LSM_HOOK_INIT/call_*_hook/security_add_hooks in ${#files[@]} rewound files"
else
	nok "hook-list API left: $(echo "$left" | wc -l) lines"
	echo "$left" | head -10 | sed 's/^/# /'
fi
nops=$(cd "$base" && grep -c 'security_operations [a-z_]*_ops = {' security/selinux/hooks.c \
	security/smack/smack_lsm.c security/tomoyo/tomoyo.c security/apparmor/lsm.c security/yama/yama_lsm.c |
	awk -F: '{s += $2} END {print s}')
check "5 modules have a struct security_operations initializer (found $nops)" [ "$nops" -eq 5 ]

# 5. Every major calls capability where capability has a hook.
if python3 tests/rewind/capcheck.py "$src" "$base" >"$t/capcheck.txt"; then
	ok "capcheck: $(tail -1 "$t/capcheck.txt")"
else
	nok "capcheck: $(tail -1 "$t/capcheck.txt")"
	grep -v '^ok' "$t/capcheck.txt" | head | sed 's/^/# /'
fi

# 6. A second run changes nothing.
head1=$(git -C "$base" rev-parse HEAD)
"$rw" --tree "$src" --out "$base" --series "$t/series2" >"$t/run2.log" 2>&1
head2=$(git -C "$base" rev-parse HEAD)
if [ "$head1" = "$head2" ] && diff -r "$t/series1" "$t/series2" >/dev/null; then
	ok "second run: same commits ($head1) and byte-identical series"
else
	nok "second run differs: $head1 vs $head2"
fi

# 7. The committed series is what the rules produce (for the distro tree).
if [ "$(realpath "$src")" = "$(realpath "$LSMCONV_DISTRO_TREE")" ] && [ -d converted-patches/rewind ]; then
	if diff -r converted-patches/rewind "$t/series1" >"$t/series.diff"; then
		ok "converted-patches/rewind is byte-identical to the regenerated series"
	else
		nok "converted-patches/rewind differs from the regenerated series (see $t/series.diff)"
		tap_tail "$t/series.diff"
	fi
else
	skip "committed series" "TREE=$src is not the distro tree"
fi

# 8. Build and boot.
if [ "${LSMCONV_REWIND_BOOT:-1}" = 0 ]; then
	skip "baseline kernel build and boots" "LSMCONV_REWIND_BOOT=0"
	finish
fi
for tool in gcc make qemu-system-x86_64 busybox; do
	if ! command -v "$tool" >/dev/null; then
		skip "baseline kernel build and boots" "$tool not installed"
		finish
	fi
done
start=$(date +%s)
# make verify (tests/pipeline) may have built this very tree with the same
# fragments already (its step 2 keeps the baseline's bzImage by tree and
# fragment hash): boot that one instead of a second cold build.
th=$(git -C "$base" rev-parse 'HEAD^{tree}')-$(sha256sum <qemu-boot/config/baseline.config | cut -c1-12)
shared=''
for k in build/pipeline-test/real/kernels build/verify/kernels; do
	[ -f "$k/baseline-$th.bzImage" ] && shared=$k/baseline-$th.bzImage && break
done
if [ -n "$shared" ]; then
	bz=$shared
	ok "baseline kernel: built by make verify from this tree and the same fragments ($shared)"
elif bz=$(qemu-boot/build-kernel.sh --tree "$base" --name baseline \
	"${bfrags[@]}" 2>"$t/build.log"); then
	ok "baseline kernel builds (tinyconfig + base + qemu-boot/config/baseline.config, $(($(date +%s) - start)) s)"
else
	nok "baseline kernel build failed"
	tail -15 "$t/build.log" | sed 's/^/# /'
	finish
fi

# The guest: lsm-list and verify/'s capability suite.
initrd=$t/initramfs.cpio.gz
adds=()
if verify/stage.sh "$t/verify" >"$t/verify.adds" 2>"$t/verify.log"; then
	while IFS= read -r a; do adds+=(--add "$a"); done <"$t/verify.adds"
	# yama last: scope 3 cannot be lowered again in the same boot.
	tests="lsm-list,lsm-label,capability,yama"
else
	tests="lsm-list,lsm-label"
	echo "# verify/ could not be staged (see $t/verify.log): lsm-list only"
fi
qemu-boot/build-initramfs.sh --out "$initrd" "${adds[@]}" >/dev/null 2>"$t/initramfs.log" || {
	nok "initramfs build failed (see $t/initramfs.log)"
	tap_tail "$t/initramfs.log"
	finish
}

declare -A marker=(
	[selinux]='SELinux:  Initializing'
	[smack]='Smack:  Initializing'
	[tomoyo]='TOMOYO Linux initialized'
	[apparmor]='AppArmor: AppArmor initialized'
)
# The label each major gives the (unconfined, policy-less) test process;
# TOMOYO has no /proc/self/attr/current, it shows the domain in securityfs.
declare -A label=(
	[selinux]='kernel /proc/self/attr/current'
	[smack]='_ /proc/self/attr/current'
	[tomoyo]='<kernel>* /sys/kernel/security/tomoyo/self_domain'
	[apparmor]='unconfined /proc/self/attr/current'
)
mapfile -t majors < <(lsm_majors)
for lsm in "${majors[@]}"; do
	log=$t/boot-$lsm.log
	read -r want file <<<"${label[$lsm]}"
	verdict=$(qemu-boot/run.sh --kernel "$bz" --initrd "$initrd" --log "$log" \
		--append "security=$lsm lsmtest=$tests lsmtest.lsm=$lsm lsmtest.label=$want lsmtest.labelfile=$file") &&
		rc=0 || rc=$?
	# A suite that skipped proves nothing: capability and Yama must have run.
	if grep -aqE '^ok [0-9]+ - (capability|yama) # SKIP' "$log.tap"; then
		rc=1
		verdict="$verdict (capability or yama skipped: $(grep -aE '# SKIP' "$log.tap" | head -2 | tr '\n' ' '))"
	fi
	inited=()
	for m in "${majors[@]}"; do
		grep -aq "${marker[$m]}" "$log" && inited+=("$m")
	done
	echo "# security=$lsm: $verdict; initialised: ${inited[*]:-none}"
	if [ "$rc" -eq 0 ] && [ "${inited[*]:-}" = "$lsm" ]; then
		ok "boot security=$lsm: only $lsm initialised, /sys/kernel/security/lsm = $lsm, label $want, $tests pass"
	else
		nok "boot security=$lsm: $verdict, initialised: ${inited[*]:-none}"
		grep -a -E '^(not ok|# want|# got)' "$log.tap" 2>/dev/null | head -8 | sed 's/^/# /'
	fi
done

# 9. The wrong baseline fails in the guest (opt-in: one more kernel build).
if [ "${LSMCONV_REWIND_MUTANT_BOOT:-0}" != 1 ]; then
	skip "baseline without cap_* calls fails verify's capability suite" "set LSMCONV_REWIND_MUTANT_BOOT=1 (one more kernel build)"
elif [ -z "${mutant_bz:-}" ] || [ "$tests" = lsm-list ]; then
	nok "baseline without cap_* calls: kernel or verify/ missing (see $t/mutant-build.log)"
	tap_tail "$t/mutant-build.log"
else
	log=$t/boot-mutant-selinux.log
	verdict=$(qemu-boot/run.sh --kernel "$mutant_bz" --initrd "$initrd" --log "$log" \
		--append "security=selinux lsmtest=capability") && rc=0 || rc=$?
	if [ "$rc" -eq 1 ]; then
		ok "baseline without cap_* calls, security=selinux: capability suite fails ($verdict)"
		grep -a -E '^# .*(mismatch|want|got)|^not ok' "$log.tap" | head -5 | sed 's/^/# /'
	else
		nok "baseline without cap_* calls was not caught: $verdict"
	fi
fi
finish
