#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tests of verify/v21cmp.py, the comparison of a series for Linux 4.0 with
# the v21 seeds.
#
# Needs ../shared next to the repository: ../shared/trees/
# linux-4.0-v21base.tar.xz (the tree v21 was written for) and
# ../shared/seeds/ (002 = v21 1/7, 003 = 4/7, 004 = 5/7); every case skips
# without them.  The part of the tarball the series touches (Makefile,
# include/linux/security.h, security/) is extracted once into a temporary
# directory: the first commit of each test series is that tree, and
# v21cmp.py reads no other file of --base.  Each "series" is a git
# repository made with `git apply` of the seeds themselves (004 with its lost
# blank context line restored; its lsm_hooks.h hunk applies by offset), then
# one mutation; every assertion is shown able to fail by the output of a
# case where it must not hold.
#
# Prints TAP 13.
# shellcheck disable=SC2016 # the backquotes in the patterns are Markdown's, not the shell's
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh

echo "TAP version 13"
shared=$root/../shared
tarball=$shared/trees/linux-4.0-v21base.tar.xz
seeds=$shared/seeds
cmp=$root/verify/v21cmp.py
cases=(
	"the seeds as our steps: every hunk identical, exit 0"
	"--md writes the report printed on stdout"
	"one IRC 0 -> 1 in security.c of step 2: exit 1, named with file and hunk"
	"a reasons row of class choice explains it: exit 0, reason printed"
	"the same row of class defect: exit 1"
	"whitespace-only re-indentation: whitespace only, exit 0"
	"a changed comment: only comments differ"
	"module initializers converted in a later step: pairs compared there"
	"a pair missing in that later step: exit 1, the pair and the step named"
	"functions: subjects, pairs of both syntaxes, tokens"
	"bad input: a base whose security.h changed: exit 2, nothing written"
	"bad input: a missing seed: exit 2, nothing written"
)
if [ ! -f "$tarball" ] || ! ls "$seeds"/002-*.patch "$seeds"/003-*.patch "$seeds"/004-*.patch >/dev/null 2>&1; then
	for c in "${cases[@]}"; do
		tap_skip "$c" "no $tarball or seeds 002-004 in $seeds (../shared next to the repository)"
	done
	tap_done
	exit
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/lsmconv-v21cmp.XXXXXX")
trap 'rm -rf "$work"' EXIT
gitc() { git -c user.name=t -c user.email=t@t -c core.autocrlf=false "$@"; }

mkdir "$work/base"
tar -xJf "$tarball" -C "$work/base" Makefile include/linux/security.h security
p1=$(ls "$seeds"/002-*.patch)
p4=$(ls "$seeds"/003-*.patch)
{ cat "$seeds"/004-*.patch; echo ' '; } >"$work/p5.patch"	# the lost blank context line
p5=$work/p5.patch
git -C "$work/base" init -q && git -C "$work/base" add -A && gitc -C "$work/base" commit -qm base

# series NAME STEP...: $work/NAME, a clone of the base with one commit per STEP, a
# function run in the clone (its name: the subject below).
split() { git apply --whitespace=nowarn "$p1"; }
macros() { git apply "$p4"; }
heads() { git apply "$p5"; }
heads_only_h() { git apply --include=include/linux/lsm_hooks.h "$p5"; }
switch_modules() { git apply --exclude=include/linux/lsm_hooks.h "$p5"; }
declare -A subject=(
	[split]="LSM: Split security.h"
	[macros]="LSM: Introduce security hook calling macros"
	[heads]="LSM: Add security module hook list heads"
	[heads_only_h]="LSM: Add security module hook list heads"
	[switch_modules]="LSM: Switch to lists of hooks"
)
series() {
	local dir=$work/$1 s
	shift
	git clone -q "$work/base" "$dir" || return 1
	for s in "$@"; do
		(cd "$dir" && "$s") && git -C "$dir" add -A &&
			gitc -C "$dir" commit -qm "${subject[${s%%+*}]}" || return 1
	done
}
# mutations of a step, run after it: NAME+MUTATION
sub() { sed -i "$2" "$1"; }
for m in irc ws comment; do subject[macros+$m]=${subject[macros]}; done
macros+irc() { macros && sub security/security.c 's/call_int_hook(ptrace_traceme, 0, parent)/call_int_hook(ptrace_traceme, 1, parent)/'; }
macros+ws() { macros && sub security/security.c 's/^\treturn call_int_hook(ptrace_traceme, 0, parent);/        return call_int_hook(ptrace_traceme,\n\t\t\t     0,   parent) ;/'; }
macros+comment() { macros && sub security/security.c 's/This is a hook that does not return a value\./This hook returns nothing./'; }
subject[switch_modules+drop]=${subject[switch_modules]}
switch_modules+drop() { switch_modules && sub security/tomoyo/tomoyo.c '/LSM_HOOK_INIT(sb_umount, tomoyo_sb_umount)/d'; }

printf '#seed\tfile\tregex\tclass\treason\n' >"$work/no-reasons.tsv"
# run NAME [ARGS...]: v21cmp.py on $work/NAME; output in $work/NAME.out, .err, .rc
run() {
	local n=$1
	shift
	# the cases' own reasons (none, unless a case gives --reasons): the
	# repository's table explains the real series, not these mutations
	python3 "$cmp" --base "$work/base" --seeds "$seeds" --ours "$work/$n" --reasons "$work/no-reasons.tsv" \
		"$@" >"$work/$n.out" 2>"$work/$n.err"
	echo $? >"$work/$n.rc"
}
rc() { cat "$work/$1.rc"; }
# all_identical OUT: every seed's total row has as many identical hunks as hunks
all_identical() {
	[ "$(grep -cE '^\| 00[234] \([0-9]/7\) \| [0-9]+ \| ([0-9]+) \| \1 \|' "$1")" -eq 3 ]
}
# row OUT FILE: FILE's row of the 003 table (security.c), columns as words
row003() { sed -n '/^## 003 /,/^## /p' "$1" | grep -F "| \`$2\` |"; }
fail_diag() { tap_diag "exit $(rc "$1")"; tap_tail "$work/$1.out" 25; tap_tail "$work/$1.err" 5; }

series seeds split macros heads && run seeds --md "$work/seeds.md"
series irc split macros+irc heads && run irc
series ws split macros+ws heads && run ws
series comment split macros+comment heads && run comment
series later split macros heads_only_h switch_modules && run later
series drop split macros heads_only_h switch_modules+drop && run drop

# 1. the seeds as our steps
if [ "$(rc seeds)" -eq 0 ] && all_identical "$work/seeds.out" && ! all_identical "$work/irc.out" &&
	grep -q '^0 difference(s)' "$work/seeds.out"; then
	tap_ok "${cases[0]} ($(grep -c '^| 00[234] (' "$work/seeds.out") seeds; not so with the IRC changed)"
else
	tap_not_ok "${cases[0]}"
	fail_diag seeds
fi
# 2. --md
if cmp -s "$work/seeds.out" "$work/seeds.md" && ! cmp -s "$work/irc.out" "$work/seeds.md"; then
	tap_ok "${cases[1]} ($(wc -l <"$work/seeds.md") lines)"
else
	tap_not_ok "${cases[1]}"
fi
# 3. one changed token
if [ "$(rc irc)" -eq 1 ] && [ "$(rc seeds)" -ne 1 ] &&
	grep -E '^\| 1 \| 003 \| `security/security.c` \| @@ -177,7 \+190,7 @@ int security_ptrace_traceme.*\| different \|.*\[-0-\]\{\+1\+\}.*unexplained' "$work/irc.out" >/dev/null &&
	row003 "$work/irc.out" security/security.c | grep -qE '^\| `security/security.c` \| 42 \| 41 \| 0 \| 0 \| 1 \|'; then
	tap_ok "${cases[2]}: $(grep -m1 -o '@@ -177.*unexplained' "$work/irc.out" | cut -c1-90)"
else
	tap_not_ok "${cases[2]}"
	fail_diag irc
fi
# 4, 5. reasons rows
printf '# test\n003\tsecurity/*.c\t^1$\tchoice\ttest: the IRC is 1 on purpose\n' >"$work/choice.tsv"
sed 's/choice/defect/' "$work/choice.tsv" >"$work/defect.tsv"
cp "$work/irc.out" "$work/irc-plain.out"
run irc --reasons "$work/choice.tsv"
cp "$work/irc.out" "$work/irc-choice.out"
if [ "$(rc irc)" -eq 0 ] && grep -q 'choice: test: the IRC is 1 on purpose' "$work/irc.out" &&
	! grep -q 'the IRC is 1 on purpose' "$work/irc-plain.out"; then
	tap_ok "${cases[3]}"
else
	tap_not_ok "${cases[3]}"
	fail_diag irc
fi
run irc --reasons "$work/defect.tsv"
defect1='^1 difference(s): 0 choice, 1 defect, 0 unexplained'
if [ "$(rc irc)" -eq 1 ] && grep -q "$defect1" "$work/irc.out" && ! grep -q "$defect1" "$work/irc-choice.out"; then
	tap_ok "${cases[4]}"
else
	tap_not_ok "${cases[4]}"
	fail_diag irc
fi
# 6. whitespace only
if [ "$(rc ws)" -eq 0 ] && row003 "$work/ws.out" security/security.c | grep -qE '^\| `security/security.c` \| 42 \| 41 \| 1 \| 0 \| 0 \|' &&
	! row003 "$work/seeds.out" security/security.c | grep -qE '^\| `security/security.c` \| 42 \| 41 \| 1 \|'; then
	tap_ok "${cases[5]}"
else
	tap_not_ok "${cases[5]}"
	fail_diag ws
fi
# 7. a comment
one_comment='^\| `security/security.c` \| 42 \| 41 \| 0 \| 1 \| 0 \|'
if row003 "$work/comment.out" security/security.c | grep -qE "$one_comment" &&
	grep -qE '\| 003 \| `security/security.c` \| @@ -133,29 \+133,42 @@.*\| only comments differ \| .*\[-that does not return a value\.-\] \{\+returns nothing\.\+\}' "$work/comment.out" &&
	! row003 "$work/ws.out" security/security.c | grep -qE "$one_comment" && [ "$(rc comment)" -eq 1 ]; then
	tap_ok "${cases[6]} (unexplained: exit 1)"
else
	tap_not_ok "${cases[6]}"
	fail_diag comment
fi
# 8. module initializers in a later step
total004() { sed -n '/^## 004 /,/^## /p' "$1" | grep '^| \*\*total'; }
if [ "$(rc later)" -eq 0 ] && total004 "$work/later.out" | grep -qE '^\| \*\*total\*\* \| 6 \| 1 \| 0 \| 0 \| 0 \| 5 \(step 4\) \|' &&
	! total004 "$work/seeds.out" | grep -q '(step 4)'; then
	tap_ok "${cases[7]}: 5 modules, pairs equal in step 4, lsm_hooks.h identical in step 3"
else
	tap_not_ok "${cases[7]}"
	fail_diag later
fi
# 9. one pair missing there
dropped='\| `security/tomoyo/tomoyo.c` \| @@ -504,35 \+504,35 @@.* in our step 4 \| different \| `\[-\(sb_umount, tomoyo_sb_umount\)-\]` \| \*\*unexplained'
if [ "$(rc drop)" -eq 1 ] && grep -qE "$dropped" "$work/drop.out" && ! grep -qE "$dropped" "$work/later.out"; then
	tap_ok "${cases[8]}"
else
	tap_not_ok "${cases[8]}"
	fail_diag drop
fi
# 10. functions
if python3 - "$root/verify" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import v21cmp
import tokdiff
n = v21cmp.normalise_subject
assert n("[PATCH 4/7 v21] LSM: Introduce security hook calling Macros") == \
    n("LSM: Introduce security hook calling macros")
assert n("[PATCH 1/7 v21] LSM: Split security.h") != n("LSM: Split security.c")
init = ('static struct security_operations a_ops = {\n\tLSM_HOOK_INIT(name, "a"),\n'
        '#ifdef X\n\tLSM_HOOK_INIT(file_open, a_open), /* c, d */\n#endif\n};\n')
desig = 'static struct security_hook_list a_hooks[] = {\n\t.name = "a",\n\t.file_open =\n\t\ta_open\n};\n'
assert v21cmp.init_pairs(init) == v21cmp.init_pairs(desig) == [("name", '"a"'), ("file_open", "a_open")]
assert v21cmp.init_pairs(desig.replace("a_open", "b_open")) != v21cmp.init_pairs(init)
assert [t for t, _ in tokdiff.tokens("a->b /* x  y */ \"s  t\"")] == ["a", "->", "b", "/*xy*/", '"s  t"']
EOF
then
	tap_ok "${cases[9]}"
else
	tap_not_ok "${cases[9]}"
fi
# 11. bad base: nothing on stdout, no --md file
cp -r "$work/base" "$work/badbase"
sed -i '0,/security/s//securiti/' "$work/badbase/include/linux/security.h"
python3 "$cmp" --base "$work/badbase" --seeds "$seeds" --ours "$work/seeds" --md "$work/bad.md" >"$work/bad.out" 2>"$work/bad.err"
r=$?
if [ "$r" -eq 2 ] && [ ! -s "$work/bad.out" ] && [ ! -e "$work/bad.md" ] &&
	grep -q "include/linux/security.h is blob [0-9a-f]*, v21 1/7 (seed 002) needs a1b7dbd" "$work/bad.err" &&
	[ "$(rc seeds)" -ne 2 ]; then
	tap_ok "${cases[10]}: $(cut -c1-100 "$work/bad.err")"
else
	tap_not_ok "${cases[10]} (exit $r)"
	tap_tail "$work/bad.err" 5
fi
# 12. a missing seed
mkdir "$work/seeds2"
cp "$p1" "$p4" "$work/seeds2/"
python3 "$cmp" --base "$work/base" --seeds "$work/seeds2" --ours "$work/seeds" --md "$work/bad2.md" >"$work/bad2.out" 2>"$work/bad2.err"
r=$?
if [ "$r" -eq 2 ] && [ ! -s "$work/bad2.out" ] && [ ! -e "$work/bad2.md" ] && grep -q "missing seed v21 5/7" "$work/bad2.err" &&
	[ "$(rc seeds)" -ne 2 ]; then
	tap_ok "${cases[11]}: $(cut -c1-100 "$work/bad2.err")"
else
	tap_not_ok "${cases[11]} (exit $r)"
	tap_tail "$work/bad2.err" 5
fi
tap_done
