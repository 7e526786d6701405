#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# verify/pipeline.sh (make verify): its skip reasons, its fixed point, and the
# mutation tests: each row of verify/mutations.tsv (an LSM_HOOK_INIT entry
# dropped, a cap chain removed where it must stay, a wrong IRC) applied to the
# final converted tree must be caught, and the test says by which step.
#
# With the real pieces (build/baseline from cocci/rewind/rewind.sh, made here
# when missing, and the series in converted-patches/series) the whole
# pipeline runs and the mutations are committed on top of the series.  Until then the distro tree
# stands in for the converted tree (the fixed point says they must be equal)
# and the distro kernel (build/kernels/lsm, booted with security=X) for the
# baseline kernel, so the trace step is proven on the mutations today.
#
# Kernels are kept in build/pipeline-test/*/kernels between runs (incremental).
# PIPELINE_BASELINE=DIR and PIPELINE_SERIES=DIR point the real run elsewhere
# (e.g. a provisional series in build/ while the generator does not exist).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
cd "$root"

P=verify/pipeline.sh
distro=$LSMCONV_DISTRO_TREE
baseline=${PIPELINE_BASELINE:-build/baseline}
series=${PIPELINE_SERIES:-converted-patches/series}
refbz=build/kernels/lsm/arch/x86/boot/bzImage
work=$root/build/pipeline-test
mkdir -p "$work"
rm -rf "$work/out"
mkdir -p "$work/out"

echo "TAP version 13"
if [ ! -f "$distro/security/security.c" ] || [ ! -d "$distro/.git" ]; then
	tap_skip "make verify pipeline" "no distro tree $distro (make tree)"
	tap_done
	exit
fi

# run NAME ARGS...: the pipeline's stdout+stderr in $work/out/NAME, exit status in $rc.
rc=0 last=''
run() {
	local name=$1
	shift
	last=$work/out/$name
	"$P" "$@" >"$last" 2>&1 && rc=0 || rc=$?
}
# pcheck DESC CMD...: tap_check, and a failure shows the tail of the last run.
pcheck() {
	local desc=$1
	shift
	if "$@"; then
		tap_ok "$desc"
	else
		tap_not_ok "$desc"
		[ -z "$last" ] || tap_tail "$last"
	fi
}
# row FILE N: the summary row of step N ("N  title  result  time  detail").
row() { grep -E "^$2 +[a-z]" "$1" | tail -1; }
result_is() {	# result_is FILE N RESULT
	row "$1" "$2" | awk -v want="$3" '{ for (i = 2; i <= NF; i++) if ($i == want) { found = 1 } } END { exit !found }'
}

# --- static checks --------------------------------------------------------------
if command -v shellcheck >/dev/null; then
	pcheck "shellcheck verify/pipeline.sh verify/traces.sh" \
		shellcheck -x verify/pipeline.sh verify/traces.sh
else
	tap_skip "shellcheck verify/pipeline.sh verify/traces.sh" "shellcheck not installed"
fi
usage_fails() {
	local r
	"$P" >/dev/null 2>&1 && r=0 || r=$?
	[ "$r" -eq 2 ]
}
pcheck "no arguments: usage, exit 2" usage_fails
# The rows written for the distro tree's version (column 6; the 4.0 row is
# make v21's series, run by hand: docs/verify.md).
distro_version=$(awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
	END { print v "." p }' "$distro/Makefile" 2>/dev/null || true)
mut_rows() { awk -F'\t' -v v="$distro_version" '!/^#/ && index(" " $6 " ", " " v " ") { print $1 }' verify/mutations.tsv; }
three_rows() { [ "$(mut_rows | wc -l)" -eq 3 ]; }
pcheck "verify/mutations.tsv has the three mutations of $distro_version" three_rows

# --work safety (both failed before lib.sh's guard_out/lock_dir: the run
# wrote into any directory and two runs shared one).
mkdir -p "$work/user-dir"
echo mine >"$work/user-dir/notes.txt"
run userdir --baseline "$work/none" --series "$work/none" --distro "$distro" --work "$work/user-dir" --steps 1
user_refused() { [ "$rc" -eq 2 ] && grep -q 'not written by lsmconv' "$last" && [ "$(ls -A "$work/user-dir")" = notes.txt ]; }
pcheck "a non-empty --work that lsmconv did not write is refused (exit 2), untouched" user_refused
mkdir -p "$work/locked"
flock "$work/.locked.lsmconv-lock" sleep 30 &
holder=$!
sleep 1
run locked --baseline "$work/none" --series "$work/none" --distro "$distro" --work "$work/locked" --steps 1
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
locked_refused() { [ "$rc" -eq 2 ] && grep -q 'in use by another lsmconv run' "$last"; }
pcheck "a second run on a --work in use refuses at once (exit 2), naming the lock" locked_refused

# --- every step skips, with the reason, when the pieces are missing -------------
run skips --baseline "$work/none" --series "$work/none" --distro "$distro" --work "$work/skips"
skips_ok() {
	local f=$work/out/skips n
	[ "$rc" -eq 0 ] || return 1
	for n in 1 2 3 4 5; do result_is "$f" "$n" skip || return 1; done
	grep -q "no baseline: cocci/rewind/rewind.sh has not produced $work/none" "$f" &&
		grep -q '^\[5/5\]' "$f" && [ -f "$work/skips/report.md" ] &&
		grep -q '^| 4 equivalence (traces) | skip |' "$work/skips/report.md"
}
pcheck "no baseline: every step skips naming the missing rewind, exit 0, report.md" skips_ok
tap_diag "$(sed -n '/^#  *step/,/^report:/p' "$work/out/skips")"

# --- fixed point on the stand-in, and the three mutations caught by it ---------
run fixpoint --converted "$distro" --distro "$distro" --work "$work/standin" --steps 3
fp_ok() { [ "$rc" -eq 0 ] && result_is "$work/out/fixpoint" 3 pass && grep -q '0 token unit(s) differ; 0 line(s) differ ignoring whitespace (diff -w), 0 byte-exact' "$work/out/fixpoint"; }
pcheck "fixed point: the distro tree against itself, 0 lines differ" fp_ok
for m in $(mut_rows); do
	file=$(awk -F'\t' -v n="$m" '$1 == n { print $2 }' verify/mutations.tsv)
	run "fixpoint-$m" --converted "$distro" --distro "$distro" --work "$work/standin" --steps 3 --mutation "$m"
	caught() { [ "$rc" -eq 3 ] && result_is "$work/out/fixpoint-$m" 3 fail && grep -q "token unit(s) differ.*$file" "$work/out/fixpoint-$m"; }
	pcheck "mutation $m: caught by the fixed point (step 3), naming $file" caught
done

# --- the trace step ----------------------------------------------------------------
# check_mutation_traces NAME OUTDIR: step 4 failed and named every expected case.
check_mutation_traces() {
	local m=$1 f=$2 c want
	[ "$rc" -eq 3 ] && result_is "$work/out/traces-$m" 4 fail || return 1
	want=$(awk -F'\t' -v n="$m" '$1 == n { print $4 }' verify/mutations.tsv)
	for c in $want; do
		grep -q "^differs: $c: " "$f/compare.txt" || { echo "# $c not named" ; return 1; }
	done
}
traces_standin() {
	if [ ! -f "$refbz" ]; then
		tap_skip "stand-in trace step" "no distro kernel $refbz (make kernel, or tests/boot)"
		return
	fi
	local st=2,4
	local args=(--converted "$distro" --distro "$distro" --work "$work/standin"
		--reference-kernel "$refbz" --steps "$st")
	run traces "${args[@]}"
	equal() { [ "$rc" -eq 0 ] && result_is "$work/out/traces" 2 pass && result_is "$work/out/traces" 4 pass; }
	pcheck "stand-in: the distro tree built with baseline.config, lsm=capability,yama,X, traces equal the distro kernel's (security=X)" equal
	tap_diag "$(grep -E '^[24] ' "$work/out/traces")"
	[ "$rc" -eq 0 ] || return 0
	for m in $(mut_rows); do
		run "traces-$m" "${args[@]}" --mutation "$m"
		pcheck "mutation $m: caught by the trace step (step 4), naming $(awk -F'\t' -v n="$m" '$1 == n { print $4 }' verify/mutations.tsv)" \
			check_mutation_traces "$m" "$work/standin/mutations/$m"
		tap_diag "$(grep -E '^(differs|missing)' "$work/standin/mutations/$m/compare.txt" 2>/dev/null | head -8)"
	done
}

# --- the real pipeline ------------------------------------------------------------
have_series() { compgen -G "$series/[0-9][0-9][0-9][0-9]-*.patch" >/dev/null; }
# The baseline as make baseline makes it (tests/rewind checks the rewind
# itself; here it is only the input of make verify).
if [ -z "${PIPELINE_BASELINE:-}" ] && have_series; then
	make_baseline
fi
if [ ! -d "$baseline/.git" ]; then
	tap_skip "make verify on the real series" "no baseline: cocci/rewind/rewind.sh has not produced $baseline"
	traces_standin
elif ! have_series; then
	traces_standin
	# The baseline alone: does it build with baseline.config?
	run baseline --baseline "$baseline" --series "$series" --distro "$distro" --work "$work/real" --steps 1,2
	err=$(row "$work/out/baseline" 2 | sed 's/^2 *build every patch *[a-z]* *[0-9]*s *//')
	if result_is "$work/out/baseline" 2 pass; then
		tap_ok "the baseline builds with base.config + baseline.config"
	else
		tap_skip "the baseline builds with base.config + baseline.config" \
			"the rewind does not compile yet (issue 4): ${err:0:160}"
	fi
	tap_skip "make verify on the real series" "no series: $series has no patches (convert.sh's series generator, issue 3)"
else
	run real --baseline "$baseline" --series "$series" --distro "$distro" --work "$work/real"
	tap_diag "$(sed -n '/^#  *step/,/^report:/p' "$work/out/real")"
	for n in 1 2 3 4 5; do
		pcheck "make verify step $n: $(row "$work/out/real" "$n" | cut -c5-30 | sed 's/ *$//')" \
			result_is "$work/out/real" "$n" pass
	done
	if result_is "$work/out/real" 4 pass; then
		for m in $(mut_rows); do
			run "traces-$m" --baseline "$baseline" --series "$series" --distro "$distro" \
				--work "$work/real" --steps 1,2,3,4 --mutation "$m"
			pcheck "mutation $m on the series: caught by the trace step (step 4)" \
				check_mutation_traces "$m" "$work/real/mutations/$m"
			tap_diag "$(grep -E '^[234] ' "$work/out/traces-$m")"
		done
	else
		tap_skip "mutations on the real series" "make verify does not pass step 4 yet"
	fi
fi
tap_done
