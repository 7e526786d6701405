#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make v21 without the kernels: the 2015 series regenerated on the tree it
# was written for (Linux 4.0, stacked in its own version) and compared with
# Casey Schaufler's own v21 patches; the same mode on a second legacy tree
# shape (the rewound distro tree, build/baseline) to show it is generic.
#
# Needs ../shared next to the repository (../shared/trees/
# linux-4.0-v21base.tar.xz, ../shared/seeds/): the cases that use it skip
# without it.  The second shape needs build/baseline (tests/run.sh makes it).
#
# Prints TAP 13.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh

echo "TAP version 13"
shared=$root/../shared
tarball=$shared/trees/linux-4.0-v21base.tar.xz
seeds=$shared/seeds
work=$root/build/v21-test
logs=$root/build/test-logs
mkdir -p "$logs"

# --- Linux 4.0 -------------------------------------------------------------------
v40_cases=(
	"4.0: make v21's tree, series and comparison steps exit 0"
	"4.0: the series has the six steps of v21 that change the tree"
	"4.0: nothing is left for a human in the final tree"
	"4.0: no legacy API in the final tree's framework and modules (comments aside)"
	"4.0: every difference from the seeds has a documented reason (0 unexplained, 0 defect)"
	"4.0: include/linux/security.h after step 1 is byte-identical to v21 1/7's"
	"4.0: every hunk of 003 and 004 that differs is counted, and the totals cover the three seeds"
	"4.0: the hook names of the tree appear in no rule, framework generator or model module"
	"4.0: a second run of the series gives byte-identical patches"
)
if [ ! -f "$tarball" ] || [ ! -d "$seeds" ]; then
	for c in "${v40_cases[@]}"; do
		tap_skip "$c" "no $tarball or $seeds (../shared next to the repository)"
	done
else
	rc=0
	scripts/v21.sh --work "$work" --steps 1,2,3 --force >"$logs/v21-test.log" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then tap_ok "${v40_cases[0]}"; else
		tap_not_ok "${v40_cases[0]} (exit $rc)"
		tap_tail "$logs/v21-test.log"
	fi
	n=$(find "$work/series" -name '000[1-9]-*.patch' 2>/dev/null | wc -l)
	subjects=$(grep -h '^Subject:' "$work/series"/000[1-9]-*.patch 2>/dev/null | sed 's/^Subject: \[PATCH [0-9/]*\] //' | paste -sd'|' -)
	tap_check "${v40_cases[1]} (got $n: $subjects)" test "$n" -eq 6
	# the items report.md's section is rendered from (series.sh --work: v21.sh's work/)
	nothing_left() {
		local t
		t=$(PYTHONPATH=$root/cocci python3 -m lsmconv.items todos "$work/work/final-todo.jsonl") &&
			[ -z "$t" ]
	}
	tap_check "${v40_cases[2]}" nothing_left
	left=$(git -C "$work/work/tree" grep -nE 'security_ops\b|struct security_operations|register_security\(|security_fixup_ops|reset_security_ops' \
		-- include/linux/security.h include/linux/lsm_hooks.h 'security/*.[ch]' 2>/dev/null |
		grep -vE '^[^:]+:[0-9]+:\s*(\*|/\*)' || true)
	if [ -z "$left" ]; then tap_ok "${v40_cases[3]}"; else
		tap_not_ok "${v40_cases[3]}"
		tap_diag "$left"
	fi
	last=$(tail -n 1 "$work/compare.txt" 2>/dev/null)
	tap_check "${v40_cases[4]} ($last)" grep -qE '^[0-9]+ difference\(s\): [0-9]+ choice, 0 defect, 0 unexplained' <<<"$last"
	# step 1's security.h against the seed's own blob (its index line)
	seedblob=$(sed -n '/^diff --git a\/include\/linux\/security.h/,/^index/s/^index [0-9a-f]*\.\.\([0-9a-f]*\).*/\1/p' "$seeds"/002-*.patch)
	c1=$(git -C "$work/work/tree" log --reverse --format=%H | sed -n 2p)
	got=$(git -C "$work/work/tree" rev-parse "$c1:include/linux/security.h" 2>/dev/null | cut -c1-${#seedblob})
	tap_check "${v40_cases[5]} (blob $got, v21's $seedblob)" test -n "$seedblob" -a "$got" = "$seedblob"
	tots=$(sed -n '/^## Totals/,/^## /p' "$work/compare.md" 2>/dev/null | grep -cE '^\| 00[234] ')
	tap_check "${v40_cases[6]} ($tots seed rows)" test "$tots" -eq 3
	# Nothing names a hook of the tree: the hooks come from the tree.
	hooks=$(PYTHONPATH=cocci python3 -m lsmconv.hooks "$work/base" 2>/dev/null | cut -f1)
	hits=''
	if [ -n "$hooks" ]; then
		hits=$(grep -nwF -f <(echo "$hooks") cocci/forward/framework.py cocci/forward/forward.py \
			cocci/lsmconv/defaults.py cocci/lsmconv/hooks.py cocci/lsmconv/form.py cocci/lsmconv/special.py \
			cocci/[0-9]*.cocci | grep -vE ':\s*(#|//|/?\*)' || true)
	fi
	if [ -n "$hooks" ] && [ -z "$hits" ]; then tap_ok "${v40_cases[7]} ($(wc -l <<<"$hooks") hooks)"; else
		tap_not_ok "${v40_cases[7]}"
		tap_diag "${hits:-no hooks read from $work/base}"
	fi
	cp -r "$work/series" "$work/series.first"
	./convert.sh series --baseline "$work/base" --own --out "$work/series" --work "$work/work" \
		--force >"$logs/v21-test-again.log" 2>&1
	if diff -r "$work/series.first" "$work/series" >/dev/null; then tap_ok "${v40_cases[8]}"; else
		tap_not_ok "${v40_cases[8]}"
		tap_diag "$(diff -r "$work/series.first" "$work/series" | head -20)"
	fi
	rm -rf "$work/series.first"
fi

# --- the rewound distro tree, stacked in its own version ----------------------------
c1="generic: the rewound distro tree (build/baseline) stacked in its own version: exit 1, a series"
c2="generic: what is left there is only the hooks 6.1 picks by the LSM's name (getprocattr, setprocattr)"
if [ ! -d build/baseline/.git ]; then
	tap_skip "$c1" "no build/baseline (make baseline)"
	tap_skip "$c2" "no build/baseline (make baseline)"
else
	rc=0
	./convert.sh series --baseline build/baseline --own --out "$work/own61" --work "$work/own61-work" \
		--force >"$logs/v21-test-own61.log" 2>&1 || rc=$?
	n=$(find "$work/own61" -name '000[1-9]-*.patch' 2>/dev/null | wc -l)
	if [ "$rc" -eq 1 ] && [ "$n" -ge 5 ]; then tap_ok "$c1 ($n patches)"; else
		tap_not_ok "$c1 (exit $rc, $n patches)"
		tap_tail "$logs/v21-test-own61.log"
	fi
	todo=$(PYTHONPATH=$root/cocci python3 -m lsmconv.items todos "$work/own61-work/final-todo.jsonl" 2>&1)
	other=$(grep -v 'strcmp(lsm, security_ops->name)' <<<"$todo" || true)
	if [ -n "$todo" ] && [ -z "$other" ]; then tap_ok "$c2 ($(wc -l <<<"$todo") lines)"; else
		tap_not_ok "$c2"
		tap_diag "${other:-nothing left at all}"
	fi
fi
tap_done
