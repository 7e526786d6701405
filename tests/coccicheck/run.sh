#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every .cocci file of lsmconv, in every mode its `virtual` lines declare,
# run standalone through the kernel tree's own scripts/coccicheck, the way a
# maintainer would:
#   make -C TREE coccicheck MODE=M COCCI=RULE M=FIXTURE/... SPFLAGS=...
# on a scratch copy of a fixture; the target is the tree itself (coccicheck
# runs spatch there, the rules default -D target to the current directory).
#   cocci/[0-9]*.cocci   the converter's rules, SPFLAGS="-D lsmconv=cocci",
#   cocci/port/*.cocci   the port's legacy sweep,
#                        both on tests/coccicheck/fixture (small legacy code
#                        written for lsmconv: a module, a half-converted
#                        module, a 4.0-style framework file), M=security/demo;
#   cocci/rewind/*.cocci the rewind's rules, on tests/coccicheck/fixture-61
#                        (6.1-shaped commoncap.c, security.c, a module and
#                        lsm_hooks.h), M=the whole fixture,
#                        SPFLAGS=--include-headers (rewind.sh gives them the
#                        header by name; coccicheck visits .c files only
#                        unless told).
# One case per rule and mode:
#   report   findings naming a fixture file and a line (FILE:LINE: or, for
#            list-hooks.cocci, FILE<TAB>LINE<TAB>)
#   org      `* TODO` lines
#   context  `*`, `-` or `+` lines
#   patch    a unified diff that applies (git apply) and changes the copy;
#            a rule that declares no transformation (no `depends on patch`
#            rule) prints its LSMCONV findings instead
# A rule whose Python fails on a file (a traceback; coccicheck may still
# exit 0) fails its case.
# Mutation, run here: with lsmconv.emit's report branch replaced by `pass`
# (a copy of cocci/ given as -D lsmconv), the report case of every
# converter rule fails (its findings are gone, and not by a crash); each is
# a case.
# TREE=DIR picks the kernel tree (default: the distro tree); MODES="m
# ..." only those modes (default every declared one).
#
# Prints TAP 13.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
tree=$(realpath -m "${TREE:-$LSMCONV_DISTRO_TREE}")
echo "TAP version 13"
if ! command -v spatch >/dev/null; then
	tap_skip "coccicheck" "spatch not installed (make deps)"
	tap_done
	exit
fi
if [ ! -x "$tree/scripts/coccicheck" ] || [ ! -f "$tree/include/linux/lsm_hook_defs.h" ]; then
	tap_skip "coccicheck" "$tree: no kernel tree with scripts/coccicheck (make tree)"
	tap_done
	exit
fi
# Outside any git work tree: spatch picks the files to visit with git grep
# when the directory is in one, and finds none in a git-ignored build/.
work=$(mktemp -d "${TMPDIR:-/tmp}/lsmconv-coccicheck.XXXXXX")
trap 'rm -rf -- "$work"' EXIT

# setup RULE: the fixture, M and SPFLAGS of RULE (fixture, sub, spflags).
setup() {
	case $1 in
	"$root"/cocci/rewind/*)
		fixture=tests/coccicheck/fixture-61 sub='' spflags=--include-headers ;;
	"$root"/cocci/port/*)
		fixture=tests/coccicheck/fixture sub=/security/demo spflags='' ;;
	*)
		fixture=tests/coccicheck/fixture sub=/security/demo spflags="-D lsmconv=$root/cocci" ;;
	esac
}

# run RULE MODE [SPFLAGS]: a fresh copy of the fixture, coccicheck's output
# in $out.
run() {
	local rule=$1 mode=$2
	setup "$rule"
	[ $# -lt 3 ] || spflags=$3
	rm -rf -- "$work/fx"
	cp -a "$fixture" "$work/fx"
	out=$work/$(basename "$(dirname "$rule")")-$(basename "$rule" .cocci).$mode.out
	make -s -C "$tree" coccicheck MODE="$mode" COCCI="$rule" M="$work/fx$sub" J=1 \
		SPFLAGS="$spflags" >"$out" 2>&1
}

# python_failed OUT: a rule's Python failed on a file (coccicheck may still
# exit 0: the rule then skips that file).
python_failed() {
	grep -qE '^Traceback |Error in Python script|^EXN: ' "$1"
}

# report_ok OUT: findings that name a fixture file and a line.
report_ok() {
	grep -qE "^$work/fx/[A-Za-z0-9_/]+\.[ch](:|	)[0-9]+(:|	)" "$1"
}

rules=("$root"/cocci/[0-9]*.cocci "$root"/cocci/port/*.cocci "$root"/cocci/rewind/*.cocci)
for rule in "${rules[@]}"; do
	name=${rule#"$root"/cocci/}
	mapfile -t modes < <(sed -n 's/^virtual[[:space:]]\+\(patch\|report\|context\|org\)[[:space:]]*$/\1/p' "$rule")
	[ ${#modes[@]} -gt 0 ] || tap_not_ok "$name: declares no mode (virtual patch|report|context|org)"
	for mode in "${modes[@]}"; do
		[[ " ${MODES:-$mode} " == *" $mode "* ]] || continue
		echo "# $name $mode" >&2
		if ! run "$rule" "$mode"; then
			tap_not_ok "$name MODE=$mode: coccicheck failed"
			tap_diag "$(tail -n 5 "$out")"
			continue
		fi
		if python_failed "$out"; then
			tap_not_ok "$name MODE=$mode: the rule's Python failed"
			tap_diag "$(grep -m 3 -E 'Error|EXN' "$out")"
			continue
		fi
		case $mode in
		report)
			tap_check "$name MODE=report: findings with file and line" report_ok "$out" ;;
		org)
			tap_check "$name MODE=org: org TODO lines" grep -q '^\* TODO ' "$out" ;;
		context)
			tap_check "$name MODE=context: -/+/* lines" grep -qE '^(\*|-[^-]|\+[^+])' "$out" ;;
		patch)
			if grep -q '^+++ ' "$out"; then
				grep -v '^LSMCONV	' "$out" >"$out.diff"
				cp -a "$work/fx" "$work/fx.orig"
				if (cd / && git apply -p1 --unsafe-paths "$out.diff") 2>"$out.apply" &&
					! diff -rq "$work/fx.orig" "$work/fx" >/dev/null; then
					tap_ok "$name MODE=patch: a diff that applies and converts"
				else
					tap_not_ok "$name MODE=patch: a diff that applies and converts"
					tap_diag "$(tail -n 5 "$out.apply")"
				fi
				rm -rf -- "$work/fx.orig"
			elif ! grep -q 'depends on patch' "$rule"; then
				tap_check "$name MODE=patch: findings (the rule changes nothing)" \
					grep -q '^LSMCONV	' "$out"
			else
				tap_not_ok "$name MODE=patch: no diff"
				tap_diag "$(tail -n 5 "$out")"
			fi ;;
		esac
	done
done

# The mutation the header describes: lsmconv.emit without its report branch.
[[ " ${MODES:-report} " == *" report "* ]] || { tap_done; exit; }
mutant=$work/mutant-cocci
cp -a "$root/cocci" "$mutant"
python3 - "$mutant/lsmconv/emit.py" <<'EOF'
import re, sys
p = sys.argv[1]
s = open(p).read()
new = re.sub(r'(    elif MODE == "report":\n)(        .*\n)+?(?=    elif MODE == "org":)',
             r'\1        pass  # MUTATION (tests/coccicheck)\n', s)
open(p, "w").write(new)
sys.exit(0 if new != s else 1)
EOF
made=$?
tap_check "mutation: a copy of lsmconv/emit.py without its report branch" test "$made" = 0
for rule in "$root"/cocci/[0-9]*.cocci; do
	grep -q '^virtual[[:space:]]\+report[[:space:]]*$' "$rule" || continue
	name=${rule#"$root"/cocci/}
	if ! run "$rule" report "-D lsmconv=$mutant"; then
		tap_not_ok "mutation: $name MODE=report: coccicheck failed"
		tap_diag "$(tail -n 5 "$out")"
		continue
	fi
	mutant_caught() { ! report_ok "$out" && ! python_failed "$out"; }
	tap_check "mutation: $name MODE=report without emit's report branch: the report case fails (no findings)" \
		mutant_caught
done
tap_done
