#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tests of cocci/forward/forward.py, the framework steps of the forward
# series (split, heads, interim-macros, switch, retire).
#
# Fixtures (tests/forward/cases/): target/ is a four-hook stacked tree,
# legacy/ the same tree rewound (gen.py struct + capability, then the legacy
# security.c, lsm_hooks.h without hook lists, Yama's stacking symbol, one
# legacy module), rule30/ and convert/ stand in for convert.sh (files copied
# over the tree between steps), expect/STEP/ and expect/STEP.out are the tree
# and the report after each step.  The chain must end equal to target/.
# Then bad input, and the real rewound baseline when build/baseline exists
# (LSMCONV_FORWARD_FULL=0 skips the full sequence with convert.sh there).
#
# Prints TAP 13.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh

fw=$root/cocci/forward/forward.py
cases=$root/tests/forward/cases
tgt=$cases/target
work=$(mktemp -d /tmp/lsmconv-forward.XXXXXX)
trap 'rm -rf "$work"' EXIT
steps=(split heads rule30 interim-macros switch convert retire)

echo "TAP version 13"

# sum of every file of a tree: "nothing written" checks
treesum() { (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha1sum) | sha1sum; }

# 1. The fixture chain: each step's tree and report, and idempotence.
cp -r "$cases/legacy" "$work/fx"
for s in "${steps[@]}"; do
	if [ -d "$cases/$s" ]; then	# stand-in for convert.sh
		cp -r "$cases/$s/." "$work/fx/"
		continue
	fi
	"$fw" "$s" --tree "$work/fx" --target "$tgt" >"$work/$s.out" 2>"$work/$s.err"
	rc=$?
	tap_check "$s: exit 0 (got $rc)" [ "$rc" -eq 0 ]
	if diff -r "$cases/expect/$s" "$work/fx" >"$work/$s.diff"; then
		tap_ok "$s: tree as expected"
	else
		tap_not_ok "$s: tree as expected"
		tap_diag "$(head -40 "$work/$s.diff")"
	fi
	if diff "$cases/expect/$s.out" "$work/$s.out" >"$work/$s.odiff"; then
		tap_ok "$s: report as expected ($(wc -l <"$work/$s.out") lines)"
	else
		tap_not_ok "$s: report as expected"
		tap_diag "$(cat "$work/$s.odiff")"
	fi
	# what later checks read of this step's output
	[ "$s" != interim-macros ] || cp "$work/fx/security/security.c" "$work/interim-security.c"
	before=$(treesum "$work/fx")
	"$fw" "$s" --tree "$work/fx" --target "$tgt" >"$work/$s.out2" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$before" = "$(treesum "$work/fx")" ] &&
		! grep -qE '"state": "(changed|imported)"' "$work/$s.out2"; then
		tap_ok "$s: idempotent (second run: exit 0, nothing changed or imported)"
	else
		tap_not_ok "$s: idempotent (exit $rc)"
		tap_diag "$(cat "$work/$s.out2")"
	fi
done
if diff -r -x foo "$tgt" "$work/fx" >"$work/final.diff"; then
	tap_ok "the whole sequence ends equal to the target (framework files)"
else
	tap_not_ok "the whole sequence ends equal to the target"
	tap_diag "$(head -40 "$work/final.diff")"
fi
tap_check "interim-macros: the textual calls carry special.tsv's IRC" \
	grep -q "call_int_hook(inode_init_security, -EOPNOTSUPP, inode," "$work/interim-security.c"
tap_check "switch: capability_hooks checked against capability.c's defaults" \
	grep -q "capability_hooks: 2 entries, the same" "$work/switch.out"

# 2. Bad input: a clear error, nothing written.
expect_fail() {	# expect_fail DESC CODE WORD DIR STEP ARGS...
	local desc=$1 code=$2 word=$3 dir=$4
	shift 4
	local before rc
	before=$(treesum "$dir")
	"$fw" "$@" >"$work/bad.out" 2>"$work/bad.err"
	rc=$?
	if [ "$rc" -eq "$code" ] && grep -q -- "$word" "$work/bad.err" && [ "$before" = "$(treesum "$dir")" ] &&
		[ ! -s "$work/bad.out" ]; then
		tap_ok "$desc: exit $code, names $word, nothing written: $(head -1 "$work/bad.err")"
	else
		tap_not_ok "$desc: exit $rc (want $code), $(head -1 "$work/bad.err")"
	fi
}
mkdir -p "$work/not-a-kernel"
echo hello >"$work/not-a-kernel/README"
expect_fail "not a kernel tree" 2 not-a-kernel "$work/not-a-kernel" split --tree "$work/not-a-kernel" --target "$tgt"
cp -r "$cases/legacy" "$work/l1"
expect_fail "bad target" 2 not-a-kernel "$work/l1" split --tree "$work/l1" --target "$work/not-a-kernel"
expect_fail "unknown step" 2 "unknown step" "$work/l1" rewind --tree "$work/l1" --target "$tgt"
expect_fail "no --target" 2 usage "$work/l1" split --tree "$work/l1"
cp -r "$tgt" "$work/nostruct"
expect_fail "split: a security.h without struct security_operations" 1 include/linux/security.h \
	"$work/nostruct" split --tree "$work/nostruct" --target "$tgt"
"$fw" split --tree "$work/l1" --target "$tgt" >/dev/null && "$fw" heads --tree "$work/l1" --target "$tgt" >/dev/null
expect_fail "interim-macros before rule 30" 1 security/security.c:1 "$work/l1" interim-macros --tree "$work/l1" --target "$tgt"
expect_fail "switch before interim-macros" 1 security/security.c "$work/l1" switch --tree "$work/l1" --target "$tgt"
cp -r "$cases/expect/switch" "$work/l2"
expect_fail "retire with a module still on the legacy API" 1 security/foo/foo.c:11 "$work/l2" retire --tree "$work/l2" --target "$tgt"
cp -r "$cases/legacy" "$work/l3"
expect_fail "heads before split" 1 "run 'split' first" "$work/l3" heads --tree "$work/l3" --target "$tgt"

# 2b. --own: a legacy tree of 4.0's shape (tests/forward/own/tree: eight
# hooks with their capability.c stubs of every kind, a major module foo and a
# module bar that security.c stacks by hand under CONFIG_SECURITY_BAR_STACKED,
# as 4.0 stacks Yama) stacked in its own version through convert.sh series
# --own, against tests/forward/own/expect/.
own=$root/tests/forward/own
if ! command -v spatch >/dev/null; then
	tap_skip "--own fixture" "no spatch"
else
	ot=$work/own-tree
	cp -r "$own/tree" "$ot"
	(cd "$ot" && git init -q && git add -A &&
		git -c user.name=t -c user.email=t@t commit -q -m fixture)
	rc=0
	./convert.sh series --baseline "$ot" --own --out "$work/own-series" --work "$work/own-work" \
		>"$work/own.log" 2>&1 || rc=$?
	tap_check "--own fixture: convert.sh series --own exits 0 (got $rc)" [ "$rc" -eq 0 ]
	n=$(find "$work/own-series" -name '000[1-9]-*.patch' | wc -l)
	tap_check "--own fixture: six steps change the tree (got $n)" [ "$n" -eq 6 ]
	bad=''
	for f in $(cd "$own/expect" && find . -type f | sort); do
		diff -u "$own/expect/$f" "$work/own-work/tree/$f" >>"$work/own.diff" 2>&1 || bad="$bad ${f#./}"
	done
	if [ -z "$bad" ]; then tap_ok "--own fixture: the stacked tree is as expected"; else
		tap_not_ok "--own fixture: the stacked tree is as expected (differ:$bad)"
		head -40 "$work/own.diff" | sed 's/^/# /'
	fi
	tap_check "--own fixture: capability.c is gone" [ ! -e "$work/own-work/tree/security/capability.c" ]
	cp -r "$work/own-series" "$work/own-series.1"
	./convert.sh series --baseline "$ot" --own --out "$work/own-series" --work "$work/own-work" \
		>"$work/own2.log" 2>&1
	tap_check "--own fixture: a second run writes the same series" diff -r "$work/own-series.1" "$work/own-series"
fi

# 3. The real rewound baseline (made here when missing, as in make check).
make_baseline
base=build/baseline
distro=$LSMCONV_DISTRO_TREE
if [ ! -d "$base/.git" ] || [ ! -f "$distro/include/linux/lsm_hook_defs.h" ]; then
	tap_skip "real baseline" "no $base or $distro (make tree, cocci/rewind/rewind.sh)"
else
	rt=$work/real
	git clone -q "$base" "$rt"
	ok=1
	for s in split heads; do
		"$fw" "$s" --tree "$rt" --target "$distro" >"$work/real-$s.out" 2>&1 || ok=0
	done
	tap_check "real baseline: split and heads exit 0" [ "$ok" -eq 1 ]
	# lsm_hooks.h: only the legacy block (moved by split) differs from the distro
	plus=$(diff -u "$rt/include/linux/lsm_hooks.h" "$distro/include/linux/lsm_hooks.h" | grep -c '^+[^+]')
	tap_check "real baseline: lsm_hooks.h after heads = distro + legacy block ($plus lines missing)" [ "$plus" -eq 0 ]
	n=$(grep -c '"state": "imported"' "$work/real-heads.out")
	tap_check "real baseline: heads imports 4 runs of the distro's lsm_hooks.h (got $n)" [ "$n" -eq 4 ]
	before=$(git -C "$rt" diff | sha1sum)
	"$fw" heads --tree "$rt" --target "$distro" >/dev/null && "$fw" split --tree "$rt" --target "$distro" >/dev/null
	tap_check "real baseline: split and heads again change nothing" [ "$before" = "$(git -C "$rt" diff | sha1sum)" ]
	if [ "${LSMCONV_FORWARD_FULL:-1}" = 0 ] || ! command -v spatch >/dev/null; then
		tap_skip "real baseline: whole sequence" "LSMCONV_FORWARD_FULL=0 or no spatch"
	else
		ok=1
		./convert.sh tree "$rt" --target "$distro" --allow-partial --jobs 2 --rules 30 --report "$work/r30.md" 2>/dev/null || ok=0
		for s in interim-macros switch; do
			"$fw" "$s" --tree "$rt" --target "$distro" >"$work/real-$s.out" 2>&1 || ok=0
		done
		./convert.sh tree "$rt" --target "$distro" --allow-partial --jobs 2 --report "$work/full.md" 2>/dev/null || ok=0
		"$fw" retire --tree "$rt" --target "$distro" >"$work/real-retire.out" 2>&1 || ok=0
		tap_check "real baseline: the whole sequence runs (split heads r30 interim switch convert retire)" [ "$ok" -eq 1 ]
		for f in include/linux/security.h include/linux/lsm_hooks.h security/commoncap.c security/Makefile security/yama/Kconfig; do
			d=$(diff -u -w "$rt/$f" "$distro/$f" | grep -c '^[-+][^-+]')
			tap_check "real baseline: $f equals the distro's (diff -w: $d lines)" [ "$d" -eq 0 ]
		done
		tap_check "real baseline: security/capability.c is gone" [ ! -e "$rt/security/capability.c" ]
		fwd=$(diff -u -w "$rt/security/security.c" "$distro/security/security.c" |
			grep '^[-+][^-+]' | grep -cE 'security_ops|security_operations|security_hook_heads|security_add_hooks|hlist_|register_security|security_module_enable|#define call_')
		tap_check "real baseline: security.c differs from the distro only in call sites ($fwd framework lines differ)" [ "$fwd" -eq 0 ]
		n=$(grep -c 'special.tsv class loop' "$work/real-switch.out")
		tap_check "real baseline: switch imports the 12 loop wrappers of special.tsv (got $n)" [ "$n" -eq 12 ]
		tap_check "real baseline: capability_hooks agree with capability.c's defaults" \
			grep -q "capability_hooks: 18 entries, the same" "$work/real-switch.out"
	fi
fi
tap_done
