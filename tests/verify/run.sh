#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The behaviour suite (verify/): build it, check on the host what is
# harmless to check there, then boot the shared kernel once per exclusive
# major and compare each trace with verify/expect/*.txt; finally boot mutant
# policies and show that the comparison catches them.
#
# LSMVERIFY_KERNEL=BZIMAGE boots that kernel instead of build/kernels/lsm.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
cd "$root"

echo "TAP version 13"
# Its own build of verify/, not make verify's: it may run beside
# tests/pipeline (tests/run.sh, second lane).
work=build/verify-test
O=$work/o
rm -rf "$work"
mkdir -p "$work"

missing=()
for t in gcc make checkpolicy apparmor_parser; do
	command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] || [ -x "/sbin/$t" ] || missing+=("$t")
done
[ -f /usr/lib/x86_64-linux-gnu/libc.a ] || missing+=(libc.a)
tree=$LSMCONV_DISTRO_TREE
[ -f "$tree/security/selinux/include/classmap.h" ] || missing+=("$tree")
if [ ${#missing[@]} -gt 0 ]; then
	tap_skip "behaviour suite" "missing: ${missing[*]} (make deps tree)"
	tap_done
	exit
fi

# --- build ----------------------------------------------------------------
if make -s -C verify O="$root/$O" >"$work/make.log" 2>&1; then
	tap_ok "make -C verify builds lsmverify, the SELinux policy and the AppArmor profiles"
else
	tap_diag "$(tail -n 20 "$work/make.log")"
	tap_not_ok "make -C verify builds lsmverify, the SELinux policy and the AppArmor profiles"
	tap_done
	exit
fi
static() {
	case $(ldd "$1" 2>&1 || true) in *'not a dynamic'*) return 0 ;; *) return 1 ;; esac
}
tap_check "lsmverify is statically linked" static "$O/lsmverify"

# Every class of the tree's classmap.h is declared in the policy.
classes_match() {
	local want got
	want=$("$O/gen-classmap" allclasses | wc -w)
	got=$(grep -c '^class [a-z_0-9]* {' "$O/selinux/policy.conf")
	[ "$want" -gt 90 ] && [ "$want" -eq "$got" ]
}
tap_check "the SELinux policy declares every class of classmap.h" classes_match
differs() { ! cmp -s "$1" "$2"; }
tap_check "the mutant SELinux policy differs from the real one" \
	differs "$O/selinux/policy.bin" "$O/selinux/policy-mutant.bin"
tap_check "the mutant AppArmor profiles differ from the real ones" \
	differs "$O/apparmor/profiles.bin" "$O/apparmor/profiles-mutant.bin"

# --- host: the guard --------------------------------------------------------
# On the host every suite must refuse (skip) before touching anything.
refuses() {
	local out rc
	out=$("$O/lsmverify" "$1" 2>&1) && rc=0 || rc=$?
	[ "$rc" -eq 77 ] && case $out in *refusing*) return 0 ;; *) return 1 ;; esac
}
for s in $("$O/lsmverify" list); do
	tap_check "host: lsmverify $s refuses to run outside the guest (exit 77)" refuses "$s"
done
loader_refuses() {
	! "$O/lsmverify" tomoyo-loader >/dev/null 2>&1
}
tap_check "host: the TOMOYO loader refuses to run outside the guest" loader_refuses

# The operation runner is harmless for a read: exit status = errno.
op_exit() {	# op_exit WANT OP ARG
	local rc
	"$O/lsmverify" op --in-guest-child "$2" "$3" && rc=0 || rc=$?
	[ "$rc" -eq "$1" ]
}
tap_check "host: 'lsmverify op read' of a readable file exits 0" op_exit 0 read "$O/lsmverify"
tap_check "host: 'lsmverify op read' of a missing file exits ENOENT (2)" op_exit 2 read /nonexistent/lsmverify
tap_check "host: an unknown operation is a setup failure (250)" op_exit 250 no-such-op ""

# --- host: expectation files and compare.sh -----------------------------------
expect_sane() {	# each suite: only its own cases, at least one allow and one deny
	local f=verify/expect/$1.txt
	[ -f "$f" ] || return 1
	! grep -v "^case $1\.[a-z0-9_]* \(allow 0\|deny E[A-Z0-9]*\)$" "$f" | grep -q . &&
		grep -q ' allow 0$' "$f" && grep -q ' deny ' "$f"
}
for s in $("$O/lsmverify" list); do
	tap_check "verify/expect/$s.txt: well-formed, has allowed and denied cases" expect_sane "$s"
done

cmp_rc() {	# cmp_rc WANT A B [ARGS]: compare.sh exits WANT
	local want=$1 rc
	shift
	verify/compare.sh "$@" >"$work/compare.out" 2>&1 && rc=0 || rc=$?
	[ "$rc" -eq "$want" ]
}
exp=verify/expect/selinux.txt
sed 's/^case /# case /' "$exp" >"$work/same.tap"
sed 's/^\(case selinux.a_read_b\) deny EACCES$/# \1 allow 0/; s/^case /# case /' "$exp" >"$work/flip.tap"
grep -v 'selinux.b_nice' "$exp" >"$work/short.txt"
tap_check "compare.sh: a TAP trace equal to the expectation compares equal" \
	cmp_rc 0 "$exp" "$work/same.tap"
flip_named() {
	cmp_rc 1 "$exp" "$work/flip.tap" && grep -q 'differs: selinux.a_read_b' "$work/compare.out"
}
tap_check "compare.sh: one flipped decision exits 1 and names the case" flip_named
short_named() {
	cmp_rc 1 "$exp" "$work/short.txt" && grep -q 'missing in .*selinux.b_nice' "$work/compare.out"
}
tap_check "compare.sh: a missing case exits 1 and names the case" short_named
tap_check "compare.sh: files without cases are a usage error (exit 2)" \
	cmp_rc 2 /dev/null /dev/null
tap_check "compare.sh --lsm: another suite's cases are ignored" \
	cmp_rc 0 --lsm selinux "$exp" "$work/same.tap"

# --- host: the suite built for another tree (Linux 4.0) ------------------------
# Only what verify/Makefile reads of a tree, from the 4.0 tarball of make v21
# (../shared/trees); the guest side on 4.0 is make verify's --own run
# (docs/verify.md).
tar40=$root/../shared/trees/linux-4.0-v21base.tar.xz
t40=$work/tree-4.0
O40=$work/o-4.0
v40_files=(Makefile security/selinux/include/classmap.h
	security/selinux/include/initial_sid_to_string.h
	security/selinux/include/security.h security/tomoyo/common.c)
v40_cases=(
	"4.0: make -C verify TREE=4.0 builds its own suite"
	"4.0: the SELinux policy is written in 4.0's highest version (29), 6.1's in 33"
	"4.0: the SELinux rules drop file map (not in 4.0's classmap.h), saying so; 6.1's drop nothing"
	"4.0: the TOMOYO profile has 4.0's PROFILE_VERSION (20110903), 6.1's 20150505"
	"4.0: the AppArmor profiles are compiled against features-4.0, not 6.1's"
	"4.0: the expectations are 6.1's with exactly the lines of expect/4.0/ in their place"
	"verify/expect/4.0/*.txt: each line a case of the plain table, decided otherwise, with a reason"
	"merge-expect.awk: an override naming no case of the table is an error"
)
if [ ! -f "$tar40" ]; then
	for c in "${v40_cases[@]}"; do tap_skip "$c" "no $tar40 (../shared)"; done
elif ! { mkdir -p "$t40" && tar -xJf "$tar40" -C "$t40" "${v40_files[@]}" &&
	make -s -C verify TREE="$root/$t40" O="$root/$O40" >"$work/make-4.0.log" 2>&1; }; then
	tap_not_ok "${v40_cases[0]}"
	tap_tail "$work/make-4.0.log"
	for c in "${v40_cases[@]:1}"; do tap_skip "$c" "the 4.0 suite did not build"; done
else
	tap_ok "${v40_cases[0]}"
	tap_check "${v40_cases[1]}" test "$(cat "$O40/selinux/policyvers")/$(cat "$O/selinux/policyvers")" = 29/33
	fitted() {
		grep -q '^# fit-perms: class file has no map in this tree$' "$O40/selinux/policy.conf" &&
			! grep -q '^allow .*[{ ]map[ };]' "$O40/selinux/policy.conf" &&
			grep -q '^allow .*[{ ]map[ };]' "$O/selinux/policy.conf" &&
			! grep -q 'fit-perms' "$O/selinux/policy.conf"
	}
	tap_check "${v40_cases[2]}" fitted
	tap_check "${v40_cases[3]}" test "$(sed -n 's/^PROFILE_VERSION=//p' "$O40/tomoyo/profile.txt" \
		"$O/tomoyo/profile.txt" | paste -sd/ -)" = 20110903/20150505
	aa40() {	# profiles.bin is the profile compiled against features-4.0
		local parser
		parser=$(command -v apparmor_parser || echo /usr/sbin/apparmor_parser)
		"$parser" -Q -K -q -M verify/apparmor/features-4.0 -o "$work/aa-4.0.bin" \
			verify/apparmor/lsmverify.profile &&
			cmp -s "$work/aa-4.0.bin" "$O40/apparmor/profiles.bin" &&
			differs "$O40/apparmor/profiles.bin" "$O/apparmor/profiles.bin"
	}
	tap_check "${v40_cases[4]}" aa40
	merged() {	# every suite: the plain table, with expect/4.0's lines in place
		local f want
		for f in verify/expect/*.txt; do
			want=$f
			if [ -f "verify/expect/4.0/${f##*/}" ]; then
				want=$work/want-${f##*/}
				awk 'FNR == NR { if ($1 == "case") o[$2] = $0; next }
					$1 == "case" && ($2 in o) { print o[$2]; next } { print }' \
					"verify/expect/4.0/${f##*/}" "$f" >"$want"
				! cmp -s "$want" "$f" || return 1
			fi
			cmp -s "$want" "$O40/expect/${f##*/}" || { tap_diag "$O40/expect/${f##*/} is not $want"; return 1; }
			cmp -s "$f" "$O/expect/${f##*/}" || { tap_diag "6.1's $O/expect/${f##*/} is not $f"; return 1; }
		done
	}
	tap_check "${v40_cases[5]}" merged
	overrides_sane() {	# each override: a case of the table, another verdict, a reason above
		local f line name
		for f in verify/expect/4.0/*.txt; do
			[ -f "verify/expect/${f##*/}" ] || return 1
			grep -q '^# ' "$f" || return 1
			while IFS= read -r line; do
				case $line in case\ *) ;; *) continue ;; esac
				name=$(echo "$line" | cut -d' ' -f2)
				grep -q "^case $name " "verify/expect/${f##*/}" || { tap_diag "$f: $name is no case"; return 1; }
				! grep -qx "$line" "verify/expect/${f##*/}" || { tap_diag "$f: $name decided as in 6.1"; return 1; }
			done <"$f"
		done
	}
	tap_check "${v40_cases[6]}" overrides_sane
	bad_override() {
		printf 'case apparmor.no_such_case allow 0\n' >"$work/bad-override.txt"
		! awk -f verify/expect/merge-expect.awk "$work/bad-override.txt" verify/expect/apparmor.txt \
			>/dev/null 2>"$work/bad-override.err" &&
			grep -q 'apparmor.no_such_case is not a case' "$work/bad-override.err"
	}
	tap_check "${v40_cases[7]}" bad_override
fi

if command -v shellcheck >/dev/null; then
	tap_check "shellcheck: verify/*.sh tests/verify/run.sh" \
		shellcheck -x verify/stage.sh verify/compare.sh verify/traces.sh \
		verify/selinux/policyvers.sh tests/verify/run.sh
fi

# --- guest ---------------------------------------------------------------------
bz=${LSMVERIFY_KERNEL:-build/kernels/lsm/arch/x86/boot/bzImage}
if [ ! -f "$bz" ] && [ -z "${LSMVERIFY_KERNEL:-}" ] && [ -d "$tree/.git" ]; then
	# Shared, incremental: normally tests/boot has built it already.
	if ! qemu-boot/build-kernel.sh --tree "$tree" --name lsm >"$work/kernel.log" 2>&1; then
		tap_not_ok "the guest kernel builds (qemu-boot/build-kernel.sh)"
		tap_tail "$work/kernel.log"
		tap_done
		exit
	fi
fi
if [ ! -f "$bz" ] || [ ! -x qemu-boot/run.sh ] || ! command -v qemu-system-x86_64 >/dev/null; then
	tap_skip "guest traces" "no kernel at $bz or no QEMU harness"
	tap_done
	exit
fi
# A private copy: another suite may be relinking the shared one.
cp "$bz" "$work/bzImage"
bz=$work/bzImage

# Three boots each (the harness's SELinux, Smack and AppArmor stacks, TOMOYO
# with each), every suite in every boot: the real policies, then the mutants.
verify/traces.sh --kernel "$bz" --work "$work/real" >"$work/real.trace" 2>"$work/real.err" && rc=0 || rc=$?
tap_diag "$(cat "$work/real.err")"
tap_check "traces.sh: three boots with the real policies gave results" [ "$rc" -eq 0 ]
verify/traces.sh --kernel "$bz" --work "$work/mutant" --mutant >"$work/mutant.trace" 2>"$work/mutant.err" && rc=0 || rc=$?
tap_diag "$(cat "$work/mutant.err")"
tap_check "traces.sh --mutant: three boots with the mutant policies gave results" [ "$rc" -eq 0 ]

# Judged from the guest's own TAP (FILE.tap), not from run.sh's exit status
# alone (its verdict line is shown above; a2b7edc's run.sh printed none for
# passing boots).
guest_ok() {	# guest_ok RUN MAJOR: every guest test passed or skipped
	grep -q '^# lsmtest done: [0-9]* passed, 0 failed' "$work/$1/$2.log.tap" &&
		! grep -q '^not ok' "$work/$1/$2.log.tap"
}
matches() {	# matches RUN MAJOR SUITE: that boot's trace equals the expectation
	verify/compare.sh --lsm "$3" "verify/expect/$3.txt" "$work/$1/$2.log.tap" \
		>"$work/compare.out" 2>&1 && return 0
	tap_diag "$(cat "$work/compare.out")"
	return 1
}
skipped() {	# skipped RUN MAJOR SUITE: exit 77 with the reason
	grep -q "^ok [0-9]* - $3 # SKIP .*not an active LSM" "$work/$1/$2.log.tap"
}
# The exclusive majors, from qemu-boot/variants.tsv (scripts/lib.sh).
# shellcheck source=scripts/lib.sh
mapfile -t exclusive < <(. scripts/lib.sh && lsm_exclusive)
for major in "${exclusive[@]}"; do
	tap_check "$major stack: every guest test passed or skipped (each matched its table in the guest)" \
		guest_ok real "$major"
	for s in capability yama tomoyo "$major"; do
		tap_check "$major stack: $s trace equals verify/expect/$s.txt" matches real "$major" "$s"
	done
	for other in "${exclusive[@]}"; do
		[ "$other" = "$major" ] && continue
		tap_check "$major stack: /lsmtest/$other skips (exit 77) with a reason" \
			skipped real "$major" "$other"
	done
done

# Two boots' traces side by side: capability, Yama and TOMOYO decide the same
# way whichever major is stacked with them.
same_across() {	# same_across SUITE MAJOR-A MAJOR-B
	verify/compare.sh --lsm "$1" "$work/real/$2.log.tap" "$work/real/$3.log.tap" >/dev/null
}
for s in capability yama tomoyo; do
	tap_check "$s: selinux-stack and smack-stack traces are equal" same_across "$s" selinux smack
	tap_check "$s: selinux-stack and apparmor-stack traces are equal" same_across "$s" selinux apparmor
done

# --- negative: a wrong policy must show -----------------------------------------
caught() {	# caught MAJOR SUITE CASE...: compare.sh exits 1 naming exactly the CASEs
	local major=$1 suite=$2 c
	shift 2
	if ! cmp_rc 1 --lsm "$suite" "verify/expect/$suite.txt" "$work/mutant/$major.log.tap" ||
		! grep -q "^$# difference(s)" "$work/compare.out"; then
		tap_diag "$(cat "$work/compare.out")"
		return 1
	fi
	for c in "$@"; do
		grep -q "^differs: $c: deny [A-Z]* vs allow 0$" "$work/compare.out" ||
			{ tap_diag "$(cat "$work/compare.out")"; return 1; }
	done
}
guest_failed() {	# guest_failed MAJOR TESTS: the guest itself reported these failing
	local got
	got=$(sed -n 's/^not ok [0-9]* - \([a-z]*\) .*/\1/p' "$work/mutant/$1.log.tap" | paste -sd, -)
	[ "$got" = "$2" ] || { tap_diag "$1: failing guest tests: '$got', want '$2'"; return 1; }
}
for major in "${exclusive[@]}"; do
	tap_check "mutant policies, $major stack: the guest fails tomoyo and $major, nothing else" \
		guest_failed "$major" "tomoyo,$major"
	# The mutant SELinux rule also lets lsmv_a_t read d, which
	# type_transition labelled lsmv_file_b_t.
	mutated=("$major.a_read_b")
	[ "$major" = selinux ] && mutated+=(selinux.a_read_d)
	tap_check "mutant $major policy: compare.sh exits 1 naming ${mutated[*]} only" \
		caught "$major" "$major" "${mutated[@]}"
	tap_check "mutant TOMOYO policy, $major stack: compare.sh exits 1 naming tomoyo.b_read_a only" \
		caught "$major" tomoyo tomoyo.b_read_a
done
# The combined traces of the two runs differ in exactly the mutated cases.
combined() {
	if cmp_rc 1 "$work/real.trace" "$work/mutant.trace" &&
		grep -q '^7 difference(s)' "$work/compare.out"; then
		return 0
	fi
	tap_diag "$(cat "$work/compare.out")"
	return 1
}
tap_check "compare.sh real.trace mutant.trace: exactly the 7 mutated decisions differ" combined

tap_done
