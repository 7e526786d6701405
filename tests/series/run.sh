#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tests of the series generator (convert.sh series, scripts/series.sh):
#   - bad input: no baseline, a stacked tree given as baseline, a bad
#     --signoff: exit 2, an error naming the problem, nothing written;
#   - the series from build/baseline (make baseline; made here when missing):
#     v21's order, a Signed-off-by and the tools in every commit message,
#     checkpatch counts for every patch in report.md, nothing left for a
#     human;
#   - reproducible: a second run is byte-identical, and equal to the
#     committed converted-patches/series.
# The committed series itself is proven by tests/pipeline (make verify on
# it: applies, every patch builds, fixed point, equivalence, stacking, and
# the three mutations caught).
#
# Prints TAP 13.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

src=${TREE:-$LSMCONV_DISTRO_TREE}
base=build/baseline
t=$root/build/series-test
committed=converted-patches/series
ids=(--signoff "lsmconv test <test@lsmconv.invalid>")
who="$LSMCONV_GIT_NAME <$LSMCONV_GIT_EMAIL>"	# series.sh default: lib.sh's fixed identity

echo "TAP version 13"
if ! command -v spatch >/dev/null; then
	tap_skip "series" "spatch not installed (make deps)"
	tap_done
	exit
fi
if ! is_kernel_tree "$src" 2>/dev/null; then
	tap_skip "series" "$src: no kernel tree (run make tree)"
	tap_done
	exit
fi
rm -rf "$t"
mkdir -p "$t"

# expect_refusal DESC PATTERN ARGS...: exit 2, PATTERN in the error, no --out.
expect_refusal() {
	local desc=$1 pat=$2 rc=0
	shift 2
	./convert.sh series "$@" --out "$t/refused" --work "$t/refused-work" >/dev/null 2>"$t/refused.err" || rc=$?
	if [ "$rc" -eq 2 ] && grep -q -- "$pat" "$t/refused.err" && [ ! -e "$t/refused" ]; then
		tap_ok "$desc: $(head -n 1 "$t/refused.err")"
	else
		tap_not_ok "$desc: exit $rc, $(head -n 1 "$t/refused.err"), out $([ -e "$t/refused" ] && echo written || echo absent)"
	fi
	rm -rf "$t/refused"
}

# 1-3. Bad input.
expect_refusal "no baseline directory" "$t/none" --baseline "$t/none" --target "$src" "${ids[@]}"
expect_refusal "a stacked tree as baseline" "include/linux/security.h" --baseline "$src" --target "$src" "${ids[@]}"
expect_refusal "a --signoff without an address" "signoff" --baseline "$src" --target "$src" --signoff "nobody"

make_baseline
if [ ! -d "$base/.git" ]; then
	tap_skip "the series from the baseline" "$base missing (make baseline: make_baseline could not make it)"
	tap_done
	exit
fi

# Output safety (each case failed before lib.sh's guard_out/lock_dir/
# on_interrupt: --out was rm -rf'ed with exit 0, two runs shared --work, a
# SIGTERM left convert.sh and spatch running).
# refuses DESC PATTERN ARGS...: exit 2 and PATTERN in the error.
refuses() {
	local desc=$1 pat=$2 rc=0
	shift 2
	./convert.sh series --baseline "$base" --target "$src" "${ids[@]}" "$@" \
		>/dev/null 2>"$t/safety.err" || rc=$?
	if [ "$rc" -ne 2 ] || ! grep -q -- "$pat" "$t/safety.err"; then
		tap_diag "exit $rc: $(cat "$t/safety.err")"
		return 1
	fi
}
mkdir -p "$t/user-out"
echo "a user's file" >"$t/user-out/notes.txt"
tap_check "a non-empty --out that lsmconv did not write is refused (exit 2)" \
	refuses x "not written by lsmconv" --out "$t/user-out" --work "$t/safety-work"
tap_check "... and its file is untouched" grep -qx "a user's file" "$t/user-out/notes.txt"
tap_check "--out the repository is refused even with --force" \
	refuses x "lsmconv repository" --out "$root" --work "$t/safety-work" --force
tap_check "--out a parent of the repository is refused even with --force" \
	refuses x "lsmconv repository" --out "$(dirname "$root")" --work "$t/safety-work" --force
mkdir -p "$t/home"
echo keep >"$t/home/keep"
home_refused() { HOME="$t/home" refuses x "/ or \$HOME" --out "$t/home" --work "$t/safety-work" --force; }
tap_check "--out \$HOME is refused even with --force" home_refused
tap_check "... and \$HOME keeps its file" test -f "$t/home/keep"
flock "$t/.lockwork.lsmconv-lock" sleep 60 &
holder=$!
sleep 1
tap_check "a second run on a --work in use refuses at once, naming the lock" \
	refuses x "in use by another lsmconv run" --out "$t/lock-out" --work "$t/lockwork"
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
tap_check "... and wrote no --out" test ! -e "$t/lock-out"

# SIGTERM mid-run: every child stopped, exit 143 "interrupted", --out as before.
mkdir -p "$t/sig-out"
echo old >"$t/sig-out/0001-old.patch"
echo "Written by lsmconv" >"$t/sig-out/.lsmconv-out"
before=$(ls -lA --time-style=full-iso "$t/sig-out")
./convert.sh series --baseline "$base" --target "$src" "${ids[@]}" --out "$t/sig-out" \
	--work "$t/sig-work" >/dev/null 2>"$t/sig.err" &
spid=$!
children() {	# processes whose command line names $1 (the driver aside)
	# the pattern from a file: grep's own command line must not match
	printf '%s\n' "$1" >"$t/pattern"
	grep -lsFf "$t/pattern" /proc/[0-9]*/cmdline 2>/dev/null | grep -v "^/proc/$spid/" | grep -v "^/proc/$$/" || true
}
# Mid-run: once a step works on the work tree (git -C, forward.py --tree).
for _ in $(seq 240); do
	[ -z "$(children "$t/sig-work/tree")" ] || break
	sleep 0.5
done
for f in $(children "$t/sig-work/tree" | head -3); do
	tap_diag "SIGTERM while running: $(tr '\0' ' ' <"$f" 2>/dev/null | cut -c1-120)"
done
kill -TERM "$spid"
src_rc=0
wait "$spid" || src_rc=$?
for _ in $(seq 10); do
	[ -n "$(children "$t/sig-work")" ] || break
	sleep 0.5
done
tap_check "SIGTERM to the series driver: exit 143" test "$src_rc" -eq 143
tap_check "... saying interrupted" grep -q interrupted "$t/sig.err"
left=$(children "$t/sig-work")
[ -z "$left" ] || tap_diag "left running: $left"
tap_check "... no process of the run is left" test -z "$left"
tap_check "... --out is as it was before the run" test "$before" = "$(ls -lA --time-style=full-iso "$t/sig-out")"

# 4. The series, signed off by git config's identity (as make series does).
rc=0
./convert.sh series --baseline "$base" --target "$src" --out "$t/out1" --work "$t/work" \
	>"$t/run1.log" 2>&1 || rc=$?
tap_check "convert.sh series exits 0 (nothing left for a human; exit $rc, see $t/run1.log)" \
	test "$rc" -eq 0
[ "$rc" -eq 0 ] || tap_tail "$t/run1.log"

mapfile -t patches < <(find "$t/out1" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' 2>/dev/null | sort)
subjects=$(for p in "${patches[@]}"; do sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' "$p"; done)
tap_diag "patches:" "$subjects"

# 5. v21's order: split, (docs), macros, heads, switch, retire.
want=$'LSM: Split security.h\nLSM: Introduce security hook calling macros\nLSM: Add security module hook list heads\nLSM: Switch to lists of hooks\nLSM: Remove unused capability.c'
tap_check "the patches come in v21's order (split, macros, heads, switch, retire)" \
	test "$subjects" = "$want"

# 6. Each commit message: Signed-off-by and the tools that produced it.
bad=0
for p in "${patches[@]}"; do
	if ! grep -qxF "Signed-off-by: $who" "$p" ||
		! grep -q '^Produced by lsmconv' "$p" ||
		! grep -qE '^    (cocci/forward/forward.py|convert.sh tree --rules)' "$p"; then
		bad=$((bad + 1))
		tap_diag "$(basename "$p"): no Signed-off-by or no tools named"
	fi
done
tap_check "every patch names its tools and is signed off by $who (${#patches[@]} patches)" \
	test "$bad" -eq 0 -a "${#patches[@]}" -gt 0

# 7. The cover letter: subject, one line per patch, the diffstat.
cover=$t/out1/0000-cover-letter.patch
# shellcheck disable=SC2016
tap_check "the cover letter has a subject, lists every patch and has a diffstat" \
	bash -c '[ -f "$1" ] && ! grep -q "\*\*\*" "$1" &&
		grep -q "^Subject: \[PATCH 0/$2\] LSM: Multiple concurrent LSMs" "$1" &&
		[ "$(grep -c "^  [0-9]*/$2 LSM: " "$1")" -eq "$2" ] &&
		grep -qE "files? changed" "$1"' _ "$cover" "${#patches[@]}"

# 8. checkpatch.pl: a total line for every patch in report.md.
ncp=$(grep -cE '^\| [0-9]{4}-.*\| total: [0-9]+ errors, [0-9]+ warnings' "$t/out1/report.md" 2>/dev/null || true)
tap_diag "$(grep -E '^\| [0-9]{4}-' "$t/out1/report.md" 2>/dev/null)"
tap_check "report.md has checkpatch.pl's counts for each of the ${#patches[@]} patches ($ncp)" \
	test "${ncp:-0}" -eq "${#patches[@]}" -a "${#patches[@]}" -gt 0

# 9. Reproducible: a second run gives the same bytes.
./convert.sh series --baseline "$base" --target "$src" --out "$t/out2" --work "$t/work" \
	>"$t/run2.log" 2>&1
tap_check "a second run is byte-identical" diff -r "$t/out1" "$t/out2"

# 10. The committed series is what the tools produce.
if [ "$(realpath "$src")" != "$(realpath "$LSMCONV_DISTRO_TREE")" ]; then
	tap_skip "committed series" "TREE=$src is not the distro tree"
else
	tap_check "converted-patches/series is what make series writes" diff -r "$committed" "$t/out1"
fi

tap_done
