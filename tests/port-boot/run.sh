#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make port (verify/port.sh) on five legacy modules written by us
# (tests/port-boot/modules/NAME/{legacy,finished,tests}):
#  - the compile-error attribution and the finished-diff check, on fixtures
#    (each with the breakage it must catch);
#  - finished/ differs from the tool output only where the report's todos
#    said to edit (cocci/lsmconv/finishcheck.py);
#  - the raw tool output built into 6.1: every compile error is named by a
#    todo, or the run fails as a false all-clear;
#  - the finished ports in ONE 6.1 kernel: built, booted with
#    lsm=capability,<all five>, listed in /sys/kernel/security/lsm, each
#    module's guest test passes; gatekeep (ops gk_security_ops, .name
#    "gklsm") is called gatekeep everywhere (DEFINE_LSM, security_add_hooks,
#    CONFIG_LSM, lsm=, the listing);
#  - equivalence on the baselines in order: the rewound distro tree
#    (build/baseline: the legacy unlinkguard and ptraceblock in ONE kernel,
#    booted with security=NAME) and Linux 4.0 (make v21's tarball, unpacked
#    into build/port-boot-v21 by scripts/v21.sh --steps 1: gatekeep, a 3.x
#    module whose legacy form does not build on the rewound tree, booted
#    with security=gklsm, its own name there); same decisions as the port
#    (verify/compare.sh); uidopen and credcount are named as building on
#    neither (hook signatures older than 3.5 and 3.3);
#  - mutation: LSM_HOOK_INIT(ptrace_access_check, ...) dropped from
#    ptraceblock's port and LSM_HOOK_INIT(inode_permission, ...) from
#    gatekeep's: the equivalence names the cases that changed, on 6.1's
#    baseline and on 4.0;
#  - the port's kernel starts from the objects of the distro kernel lsm
#    (tests/boot builds it; build-kernel.sh --seed).
# The same finished ports on every other distro target: tests/port-targets.
# Kernel builds: port-boot-test-target, port-boot-test-baseline-VERSION (one
# per baseline), in their scratch trees under build/port-boot-test,
# incremental.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
cd "$root"
export PYTHONPATH=$root/cocci

# shellcheck source=tests/port-boot/lib.sh
. "$root/tests/port-boot/lib.sh"

echo "TAP version 13"
equiv=(unlinkguard ptraceblock)
era=(gatekeep)
nobase=(credcount uidopen)
work=$port_work
fx=build/port-boot-fixtures
rm -rf "$fx"
mkdir -p "$fx" "$work"

# --- fixtures: attribution -------------------------------------------------
# the port's items (lsmconv.items): one todo and one change
cat >"$fx/items.jsonl" <<'EOF'
{"file": "mod/mymod.c", "line": 14, "kind": "todo", "hook": null, "message": "mymod_ops: .dentry_open = mymod_dentry_open: renamed file_open (3.5): port the signature", "rule": "port", "check": "sig", "action": null, "state": "todo"}
{"file": "mod/mymod.c", "line": 15, "kind": "change", "hook": null, "message": "kept LSM_HOOK_INIT(syslog, cap_syslog)", "rule": "port", "check": "cap", "action": null, "state": "changed"}
EOF
cat >"$fx/mymod.c" <<'EOF'
#include <linux/lsm_hooks.h>

static int mymod_helper(int x)
{
	return x;
}

static int mymod_dentry_open(struct file *file, const struct cred *cred)
{
	return cred->fsuid.val == 1000 ? -EACCES : 0;
}

static struct security_hook_list mymod_hooks[] = {
	LSM_HOOK_INIT(dentry_open, mymod_dentry_open),
	LSM_HOOK_INIT(syslog, cap_syslog),
};
EOF
cat >"$fx/named.log" <<'EOF'
../security/mymod/mymod.c: In function 'mymod_dentry_open':
../security/mymod/mymod.c:10:16: error: invalid use of undefined type 'const struct cred'
../security/mymod/mymod.c: At top level:
../security/mymod/mymod.c:14:2: error: 'union security_list_options' has no member named 'dentry_open'
EOF
cp "$fx/named.log" "$fx/unnamed.log"
echo "../security/mymod/mymod.c:15:32: error: 'cap_syslog' undeclared here (not in a function)" >>"$fx/unnamed.log"
echo "../security/mymod/mymod.c:5:9: error: 'y' undeclared (first use in this function)" >"$fx/other.log"
attr() {
	python3 -m lsmconv.buildattr --log "$fx/$1" --items "$fx/items.jsonl" \
		--module-dir security/mymod --src "$fx" >"$fx/$1.out"
}
tap_check "attribution: errors in a todo's function and on its line are reported" attr named.log
tap_check "attribution: both errors counted as reported" \
	test "$(grep -c '^reported' "$fx/named.log.out")" = 2
# The breakage this must catch: a cap_* entry the report never named.
# exit 1 exactly: a usage error (2) is not the verdict.
attr_fails() {
	local rc=0
	python3 -m lsmconv.buildattr --log "$fx/unnamed.log" --items "$fx/items.jsonl" \
		--module-dir security/mymod --src "$fx" >"$fx/unnamed.out" || rc=$?
	[ $rc = 1 ]
}
tap_check "attribution: an LSM-API error no todo names fails (false all-clear; the change on its line is no todo)" attr_fails
tap_check "attribution: it is listed as not-reported lsm-api" \
	grep -q $'^not-reported\tmymod.c:15\t.*\tlsm-api$' "$fx/unnamed.out"
tap_check "attribution: an error outside the LSM API is counted, not fatal" attr other.log
tap_check "attribution: ... and listed as not-reported other" \
	grep -q $'^not-reported\tmymod.c:5\t.*\tother$' "$fx/other.log.out"

# --- fixtures: finished diff -------------------------------------------------
mkdir -p "$fx/tool" "$fx/fin" "$fx/fin2"
cp "$fx/mymod.c" "$fx/tool/"
sed -e 's/mymod_dentry_open(struct file \*file, const struct cred \*cred)/mymod_file_open(struct file *file)/' \
	-e 's/cred->fsuid/file->f_cred->fsuid/' \
	-e 's/LSM_HOOK_INIT(dentry_open, mymod_dentry_open)/LSM_HOOK_INIT(file_open, mymod_file_open)/' \
	"$fx/mymod.c" >"$fx/fin/mymod.c"
sed 's/return x;/return x + 1;/' "$fx/fin/mymod.c" >"$fx/fin2/mymod.c"
fin() { python3 -m lsmconv.finishcheck --items "$fx/items.jsonl" "$@" >"$fx/fin.out"; }
tap_check "finished diff: edits the todo named pass" fin --tool "$fx/tool" --finished "$fx/fin"
# The breakage this must catch: an edit in a function no todo names.
fin_fails() {
	local rc=0
	python3 -m lsmconv.finishcheck --items "$fx/items.jsonl" --tool "$fx/tool" --finished "$fx/fin2" \
		>/dev/null || rc=$?
	[ $rc = 1 ]
}
tap_check "finished diff: an edit no todo names fails" fin_fails
printf 'mymod.c\treturn x + 1;\toff by one in the helper, found in review\n' >"$fx/edits.tsv"
tap_check "finished diff: ... unless EDITS.tsv lists it with a reason" \
	fin --tool "$fx/tool" --finished "$fx/fin2" --edits "$fx/edits.tsv"

tree=$LSMCONV_DISTRO_TREE
if [ ! -d "$tree" ]; then
	tap_skip "make port on the four modules" "no distro tree (run make tree)"
	tap_done
	exit
fi

# --- bad input: a clear error, exit 2, nothing written -------------------------
bad() {
	local want=$1 rc=0
	shift
	verify/port.sh --work "$fx/bad" "$@" >"$fx/bad.out" 2>&1 || rc=$?
	[ $rc = 2 ] && grep -q "$want" "$fx/bad.out" && [ ! -e "$fx/bad" ]
}
tap_check "bad input: a missing module directory" bad 'no such module directory' "$fx/nonexistent"
tap_check "bad input: a name the tree has already (selinux)" bad 'exists already' "$M/uidopen:selinux"
tap_check "bad input: an invalid name" bad 'must be lower case' "$M/uidopen:Bad-Name"
tap_check "bad input: --finished without finished/" bad 'finished does not exist' --finished "$fx"

# --- finished/ vs tool output ---------------------------------------------------
if ./convert.sh --help 2>&1 | grep -q "convert.sh port "; then port_mode=1; else port_mode=0; fi
for m in "${mods[@]}"; do
	out=$fx/conv-$m
	rc=0
	if [ $port_mode = 1 ]; then
		./convert.sh port "$M/$m/legacy" --target "$tree" --name "$m" --out "$out" \
			--report "$out.md" --items "$out.jsonl" >/dev/null 2>&1 || rc=$?
	else
		./convert.sh file "$M/$m/legacy"/*.c --target "$tree" --out "$out" \
			--report "$out.md" >/dev/null 2>&1 || rc=$?
	fi
	if [ $rc -ge 2 ]; then
		tap_not_ok "$m: finished/ differs from the tool output only where todos said (convert.sh exit $rc)"
	elif [ $port_mode = 0 ]; then
		tap_skip "$m: finished/ differs from the tool output only where todos said" \
			"convert.sh has no port mode yet (branch port): finished/ is written against its output"
	elif python3 -m lsmconv.finishcheck --tool "$out" --finished "$M/$m/finished" \
		--items "$out.jsonl" --edits "$M/$m/finished/EDITS.tsv" >"$out.check"; then
		tap_ok "$m: finished/ differs from the tool output only where todos said"
	else
		tap_not_ok "$m: finished/ differs from the tool output only where todos said"
		tap_diag "$(grep '^unnamed' "$out.check")"
	fi
done

# --- raw tool output into 6.1: attribution of the real compile errors ------------
log=$work/raw.out
rc=0
fresh_target_kernel "$work"
nice -n 10 verify/port.sh --work "$work" --baseline none "${specs[@]}" >"$log" 2>&1 || rc=$?
check_seeded "raw tool output: the target kernel starts from the objects of the distro kernel lsm" "$work" "$tree" "$log"
tap_check "raw tool output: the build of the unfinished port fails (exit 1)" test $rc = 1
tap_check "raw tool output: the failure is the build, with errors attributed" \
	grep -q 'error(s) named by a todo' "$log"
if [ $port_mode = 1 ]; then
	tap_check "raw tool output: every LSM-API compile error is named by a todo" \
		bash -c "! grep -q 'the report did not name' '$log'"
else
	# convert.sh file still gives credcount a false all-clear: make port must
	# refuse it (this is the real-world mutation the attribution catches).
	tap_check "raw tool output: convert.sh file's false all-clear is caught (unreported LSM-API error)" \
		grep -q 'an LSM-API compile error the report did not name' "$log"
fi
[ $rc = 1 ] || tap_diag "$(tail -n 20 "$log")"

# --- finished ports into 6.1, equivalence on the baseline -----------------------
log=$work/finished.out
rc=0
# The equivalence on the baseline (legacy form booted there, decisions
# compared, a dropped LSM_HOOK_INIT caught) runs whenever build/baseline
# exists (tests/pipeline makes it earlier in make check).  It costs one more
# cold kernel build (minimal config: the baseline with the legacy modules);
# LSMCONV_PORT_EQUIV=0 leaves it out for a quicker local run.
baseline=build/baseline why_none="no baseline (make baseline)"
[ -d "$baseline" ] || baseline=none
# The baseline of the 3.x module's own era: Linux 4.0 from make v21's
# tarball (../shared next to the repository), unpacked as make v21 does
# (one commit) into a directory of this suite's own.
tar40=$root/../shared/trees/linux-4.0-v21base.tar.xz
base40=build/port-boot-v21/base why40=''
if [ "${LSMCONV_PORT_EQUIV:-1}" = 0 ]; then
	baseline=none base40=none
	why_none="left out by LSMCONV_PORT_EQUIV=0" why40=$why_none
elif [ ! -f "$tar40" ]; then
	base40=none why40="no $tar40 (../shared next to the repository)"
elif ! scripts/v21.sh --tree "$tar40" --work build/port-boot-v21 --steps 1 >"$work/v21-unpack.out" 2>&1; then
	base40=none why40="scripts/v21.sh --steps 1 failed: $(tail -n 1 "$work/v21-unpack.out")"
fi
bl=()
[ "$baseline" = none ] || bl+=(--baseline "$baseline")
[ "$base40" = none ] || bl+=(--baseline "$base40")
[ ${#bl[@]} -gt 0 ] || bl=(--baseline none)
nice -n 10 verify/port.sh --work "$work" "${bl[@]}" --finished "${specs[@]}" >"$log" 2>&1 || rc=$?
tap_diag "$(grep -E '^\[|built in| verdict=|^equivalence|^build|^boot|port.sh:' "$log")"
tap_check "finished ports: make port passes (exit 0)" test $rc = 0
tap_check "finished ports: one 6.1 kernel built" grep -q '^build target: pass' "$log"
# The scratch copy of the tree leaves the tree's object directories out
# (tree_copy_skips): the only one in it is its own.
own_objdir() {
	local objs=("$work/target-tree/$LSMCONV_OBJ_PREFIX"*)
	[ ${#objs[@]} -eq 1 ] &&
		[ "$(realpath "${objs[0]}")" = "$(readlink -f "build/kernels/$(basename "$work")-target")" ]
}
tap_check "finished ports: the scratch tree holds its own object directory, none of the distro tree's" own_objdir
tap=$work/target-boot.log.tap
for m in "${mods[@]}"; do
	tap_check "$m: listed in /sys/kernel/security/lsm" grep -q "^# listed: $m\$" "$tap"
	tap_check "$m: its guest test passes" grep -qE "^ok [0-9]+ - $m\$" "$tap"
	tap_check "$m: its test proved a denial with errno" grep -qE "^# case $m\.[a-z0-9_]+ deny E[A-Z]+\$" "$tap"
done
# The name make port gave (issue 27 item 4): gatekeep's ops struct is
# gk_security_ops and its .name "gklsm"; on 6.1 the LSM is gatekeep in every
# place the kernel knows it by.
gsrc=$work/target-tree/security/gatekeep/gatekeep.c
gcfg=$work/target-tree/$LSMCONV_OBJ_PREFIX$(basename "$work")-target/.config
tap_check "gatekeep: DEFINE_LSM(gatekeep) with .name = \"gatekeep\" in the installed port" \
	grep -qzE 'DEFINE_LSM\(gatekeep\) = \{[^}]*\.name = "gatekeep",' "$gsrc"
tap_check "gatekeep: security_add_hooks(..., \"gatekeep\")" \
	grep -qzE 'security_add_hooks\([^;]*"gatekeep"\);' "$gsrc"
tap_check "gatekeep: the legacy name gklsm is left in no registration" \
	bash -c "! grep -E 'DEFINE_LSM\(gklsm|\.name = \"gklsm\"|\"gklsm\"\);' '$gsrc'"
tap_check "gatekeep: CONFIG_LSM of the target kernel lists gatekeep" \
	grep -qE '^CONFIG_LSM="([a-z0-9_]+,)*gatekeep(,|")' "$gcfg"
tap_check "gatekeep: the kernel was booted with lsm=capability,...,gatekeep (its Command line)" \
	grep -qE 'Command line: .* lsm=capability,([a-z0-9_]+,)*gatekeep( |$)' "$work/target-boot.log"

if [ "$baseline" = none ] && [ "$base40" = none ]; then
	tap_skip "equivalence and mutation" "$why_none"
	tap_done
	exit
fi
rv='' v40=''
[ "$baseline" = none ] || rv=$(bash -c '. scripts/lib.sh && kernel_version "$1"' _ "$baseline")
[ "$base40" = none ] || v40=$(bash -c '. scripts/lib.sh && kernel_version "$1"' _ "$base40")
for m in "${equiv[@]}"; do
	if [ -z "$rv" ]; then tap_skip "$m: legacy form on the baseline decides like the port" "$why_none"; continue; fi
	tap_check "$m: legacy form on the rewound baseline ($rv) decides like the port" \
		grep -q "^equivalence $m: pass, legacy form on $rv " "$log"
done
for m in "${era[@]}"; do
	if [ -z "$v40" ]; then tap_skip "$m: legacy form on Linux 4.0 decides like the port on 6.1" "$why40"; continue; fi
	tap_check "$m: legacy form on Linux 4.0 ($v40, security=gklsm, its name there) decides like the port on 6.1" \
		grep -q "^equivalence $m: pass, legacy form on $v40 ($(realpath "$base40"), security=gklsm lsmtest_major=$m) vs port (same: [1-9]" "$log"
	tap_check "$m: its legacy form on 4.0 proved a denial with errno" \
		grep -qE "^# case $m\.[a-z0-9_]+ deny E[A-Z]+\$" "$work/$m/baseline-boot.log.tap"
	if [ -n "$rv" ]; then
		tap_check "$m: its legacy form was tried on the rewound baseline first, and did not build there" \
			grep -q "^$m/" "$work/$m/baseline-fail-$rv"
	fi
done
for m in "${nobase[@]}"; do
	want=''
	[ -z "$rv" ] || want+="$rv: $m/"
	[ -z "$v40" ] || want+="${want:+.*; }$v40: $m/"
	tap_check "$m: make port says why its legacy form has no equivalence run (it builds on no baseline given)" \
		grep -q "^equivalence $m: not possible, its legacy form builds on no legacy baseline: $want" "$log"
done

# --- mutation: a dropped LSM_HOOK_INIT must be caught by the equivalence -------
log=$work/mutant.out
rc=0
nice -n 10 verify/port.sh --work "$work" "${bl[@]}" --finished \
	--mutate-drop ptraceblock:ptrace_access_check --mutate-drop gatekeep:inode_permission \
	"${specs[@]}" >"$log" 2>&1 || rc=$?
tap_check "mutation drop LSM_HOOK_INIT(ptrace_access_check) and LSM_HOOK_INIT(inode_permission): make port fails (exit 3: a step failed)" test $rc = 3
if [ -n "$rv" ]; then
	tap_check "mutation: the equivalence names ptraceblock.attach_victim deny EPERM vs allow 0" \
		grep -q 'differs: ptraceblock.attach_victim: deny EPERM vs allow 0' "$work/ptraceblock/compare.txt"
	tap_check "mutation: unlinkguard stays equivalent" grep -q '^equivalence unlinkguard: pass' "$log"
else
	tap_skip "mutation on the rewound baseline" "$why_none"
fi
if [ -n "$v40" ]; then
	tap_check "mutation: the equivalence on 4.0 names gatekeep.write_owned deny EACCES vs allow 0" \
		grep -q 'differs: gatekeep.write_owned: deny EACCES vs allow 0' "$work/gatekeep/compare.txt"
	tap_check "mutation: ... and fails gatekeep's equivalence by name" \
		grep -q "^equivalence gatekeep: FAIL, decisions differ (legacy on $v40 vs port): 1 case(s)" "$log"
	# Nothing of the 4.0 kernel changed since the finished run: Kbuild
	# compiles (nearly) nothing (qemu-boot/compat.sh's make-cmd for GNU make
	# 4.3; without it every object, about 800).
	few40() {
		local n
		n=$(sed -n "s/.*$(basename "$work")-baseline-$v40: .*ccache: [0-9]* of \([0-9]*\) compilations.*/\1/p" "$log" | tail -n 1)
		tap_diag "4.0 baseline kernel of the mutation run: ${n:-no} compilations"
		[ -n "$n" ] && [ "$n" -lt 100 ]
	}
	tap_check "mutation: the unchanged 4.0 baseline kernel is rebuilt incrementally (fewer than 100 compilations)" few40
else
	tap_skip "mutation on Linux 4.0" "$why40"
fi
tap_done
