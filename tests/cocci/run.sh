#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fixture runner for lsmconv's semantic patches (TAP 13, see docs/CONTRACTS.md).
#
# usage: tests/cocci/run.sh [PATTERN]
#
# Every tests/cocci/cases/NN-name/ (or only those whose name contains
# PATTERN) holds input.c, expected.c and optionally report.expect (lines
# that must appear, grep -F, in the report) and exit.expect (convert.sh's
# exit status, default 0).  Per case: one test for the output (byte
# comparison and exit status), one for idempotence (converting expected.c
# changes nothing), one per report.expect line.  The idempotence run is one
# convert.sh run over every case's expected.c, as a maintainer converts a
# tree (a spatch start-up per rule, not per rule and case).
# Then a few checks of convert.sh itself (errors, in-place and tree mode),
# unless PATTERN is given and is not "driver".
# TREE=DIR picks the target tree (default: the distro tree); JOBS=N
# runs N cases at a time (default: the number of CPUs).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CASES="$HERE/cases"
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
TARGET=${TREE:-$LSMCONV_DISTRO_TREE}
PATTERN=${1:-}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 1)}

N=0
FAILED=0
TMP=""

cleanup() {
	if [[ -n "$TMP" && -d "$TMP" ]]; then
		rm -rf -- "$TMP"
	fi
}

# Cases run in parallel and print unnumbered results; main numbers them.
ok() {
	echo "ok - $*"
}

not_ok() {
	echo "not ok - $*"
}

skip() {
	N=$((N + 1))
	echo "ok $N - $1 # SKIP $2"
}

diag() {
	sed 's/^/# /'
}

# convert DIR INPUT: runs convert.sh on DIR/in/input.c; sets RC.
convert() {
	local dir=$1 input=$2
	rm -rf -- "$dir"
	mkdir -p "$dir/in" "$dir/out"
	cp -- "$input" "$dir/in/input.c"
	RC=0
	"$ROOT/convert.sh" file "$dir/in/input.c" --target "$TARGET" \
		--out "$dir/out" --report "$dir/report.md" \
		>"$dir/stdout" 2>"$dir/stderr" || RC=$?
}

# same_output DESC EXPECTED OUT STDERR: convert.sh's output OUT is EXPECTED;
# else the diff and the end of its STDERR.
same_output() {
	if cmp -s -- "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		if [[ -f "$3" ]]; then
			diff -u -- "$2" "$3" | head -n 40 | diag || true
		fi
		tail -n 5 "$4" | diag
	fi
}

run_case() {
	local c=$1 name want_rc line
	name=$(basename -- "$c")
	if [[ ! -f "$c/input.c" || ! -f "$c/expected.c" ]]; then
		not_ok "$name: input.c and expected.c present"
		return
	fi
	want_rc=0
	if [[ -f "$c/exit.expect" ]]; then
		want_rc=$(tr -d '[:space:]' <"$c/exit.expect")
	fi

	convert "$TMP/$name" "$c/input.c"
	if [[ $RC == "$want_rc" ]]; then
		same_output "$name: output matches expected.c (exit $RC)" "$c/expected.c" \
			"$TMP/$name/out/input.c" "$TMP/$name/stderr"
	else
		not_ok "$name: output matches expected.c (exit $RC, want $want_rc)"
		tail -n 5 "$TMP/$name/stderr" | diag
	fi

	if [[ -f "$c/report.expect" ]]; then
		local shown=0
		while IFS= read -r line || [[ -n "$line" ]]; do
			[[ -n "$line" ]] || continue
			if grep -qF -- "$line" "$TMP/$name/report.md" 2>/dev/null; then
				ok "$name: report has '$line'"
			else
				not_ok "$name: report has '$line'"
				if [[ $shown -eq 0 ]]; then
					if [[ -f "$TMP/$name/report.md" ]]; then
						diag <"$TMP/$name/report.md"
					else
						echo "no report written" | diag
					fi
					shown=1
				fi
			fi
		done <"$c/report.expect"
	fi

	same_output "$name: idempotent (expected.c converts to itself)" "$c/expected.c" \
		"$TMP/idem/out/$name.c" "$TMP/idem/stderr"
}

# idempotence CASE...: every case's expected.c, as NAME.c, through one
# convert.sh run into $TMP/idem/out (run_case compares).
idempotence() {
	local c
	mkdir -p "$TMP/idem/in"
	for c in "$@"; do
		[[ ! -f "$c/expected.c" ]] || cp -- "$c/expected.c" "$TMP/idem/in/$(basename -- "$c").c"
	done
	"$ROOT/convert.sh" file "$TMP/idem/in"/*.c --target "$TARGET" --jobs "$JOBS" \
		--out "$TMP/idem/out" --report "$TMP/idem/report.md" \
		>"$TMP/idem/stdout" 2>"$TMP/idem/stderr" || true
}

# Run the cases, JOBS at a time; each leaves NAME.tap, then NAME.done.
launch() {
	local c running=0
	for c in "$@"; do
		(
			run_case "$c" >"$TMP/$(basename -- "$c").tap" 2>&1 || true
			: >"$TMP/$(basename -- "$c").done"
		) &
		running=$((running + 1))
		if [[ $running -ge $JOBS ]]; then
			wait -n || true
			running=$((running - 1))
		fi
	done
	wait
}

# check NAME CMD...: one test, passes when CMD succeeds.
check() {
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then
		ok "driver: $what"
	else
		not_ok "driver: $what"
	fi
}

driver_tests() {
	local d=$TMP/driver rc
	mkdir -p "$d/out" "$d/tree/security/foo" "$d/tree/include/linux"
	RC=0
	"$ROOT/convert.sh" file "$d/missing.c" --target "$TARGET" --out "$d/out" \
		>"$d/stdout" 2>"$d/stderr" || RC=$?
	check "missing file: exit 2" test "$RC" = 2
	check "missing file: the message names it" grep -qF "$d/missing.c" "$d/stderr"
	check "missing file: nothing written" test -z "$(ls -A "$d/out")"

	RC=0
	"$ROOT/convert.sh" tree "$d/nowhere" --target "$TARGET" >"$d/stdout" 2>"$d/stderr" || RC=$?
	check "not a kernel tree: exit 2, path named" test "$RC" = 2 -a -n "$(grep -F "$d/nowhere" "$d/stderr")"

	RC=0
	"$ROOT/convert.sh" file "$CASES/10-yama-module/input.c" --target "$d" --out "$d/out" \
		>"$d/stdout" 2>"$d/stderr" || RC=$?
	check "target without lsm_hook_defs.h: exit 2" test "$RC" = 2

	RC=0
	"$ROOT/convert.sh" file "$CASES/10-yama-module/input.c" --target "$TARGET" --out "$d/out" \
		--rules 10,0 >"$d/stdout" 2>"$d/stderr" || RC=$?
	check "--rules with an id the manifest lacks: exit 2, cocci/manifest.tsv named" \
		test "$RC" = 2 -a -n "$(grep -F "no rule 0 in cocci/manifest.tsv" "$d/stderr")"
	check "--rules with an id the manifest lacks: nothing written" test -z "$(ls -A "$d/out")"

	cp -- "$CASES/12-no-name/input.c" "$d/inplace.c"
	rc=0
	"$ROOT/convert.sh" file "$d/inplace.c" --target "$TARGET" --report "$d/r.md" \
		>/dev/null 2>"$d/stderr" || rc=$?
	check "file mode edits in place" cmp -s "$d/inplace.c" "$CASES/12-no-name/expected.c"
	check "file mode: progress lines on stderr" grep -q '^\[1/[0-9]*\] rule ' "$d/stderr"
	check "file mode: no temp files left" test -z "$(find "$d" -name '*.lsmconv-tmp.*')"

	cp -- "$CASES/10-yama-module/input.c" "$d/tree/security/foo/foo.c"
	cp -- "$CASES/21-vendor-hook/input.c" "$d/tree/security/foo/vendor.c"
	printf 'static int x = ;\nstatic struct security_operations bad_ops = { .name = "bad", };\n' \
		>"$d/tree/security/foo/bad.c"
	echo 'int unrelated;' >"$d/tree/security/foo/other.c"
	rc=0
	"$ROOT/convert.sh" tree "$d/tree" --target "$TARGET" --out "$d/tout" --jobs 2 \
		--report "$d/tree.md" >/dev/null 2>"$d/stderr" || rc=$?
	check "tree mode: exit 1 with todo items" test "$rc" = 1
	check "tree mode: converts into --out" cmp -s "$d/tout/security/foo/foo.c" "$CASES/10-yama-module/expected.c"
	check "tree mode: leaves the tree alone" cmp -s "$d/tree/security/foo/foo.c" "$CASES/10-yama-module/input.c"
	check "tree mode: skips files without the legacy API" test ! -e "$d/tout/security/foo/other.c"
	check "tree mode: unparsable file named with its line" grep -qF "security/foo/bad.c:1: parse error" "$d/tree.md"
	check "tree mode: counts unparsable files" grep -qF "files spatch could not parse: 1" "$d/tree.md"
	rc=0
	"$ROOT/convert.sh" tree "$d/tree" --target "$TARGET" --out "$d/tout2" --allow-partial \
		>/dev/null 2>&1 || rc=$?
	check "--allow-partial: exit 0" test "$rc" = 0

	jobs_tests "$d"
}

# The output does not depend on --jobs: tests/cocci/jobs/fooa.c and foob.c
# use the same function names in other roles (a hook whose capability chain
# goes and one whose chain stays, a hook and a helper, a function made
# static again for CONFIG_SECURITY_YAMA_STACKED and one that stays global);
# one spatch process for both files must not mix them up.
jobs_tests() {
	local d=$1 jd=$HERE/jobs j f rc
	for j in 1 2; do
		rc=0
		"$ROOT/convert.sh" file "$jd/fooa.c" "$jd/foob.c" --target "$TARGET" --jobs "$j" \
			--out "$d/jobs$j" --report "$d/jobs$j.md" --items "$d/jobs$j.jsonl" \
			>/dev/null 2>&1 || rc=$?
		check "--jobs $j: exit 0" test "$rc" = 0
		for f in fooa.c foob.c; do
			check "--jobs $j: $f converts to jobs/expected/$f" \
				cmp -s "$d/jobs$j/$f" "$jd/expected/$f"
		done
	done
	check "--jobs 1 and 2: the same output files" diff -r "$d/jobs1" "$d/jobs2"
	check "--jobs 1 and 2: the same items" cmp -s "$d/jobs1.jsonl" "$d/jobs2.jsonl"
	check "--jobs 1 and 2: the same report" cmp -s "$d/jobs1.md" "$d/jobs2.md"
	check "--jobs: fooa's foo_task_hook chain kept (registered for task_getscheduler only)" \
		grep -qF "jobs/fooa.c:26: cap_task_setscheduler() in foo_task_hook (registered for task_getscheduler): kept" "$d/jobs1.md"
	check "--jobs: foob's foo_task_hook chain removed (registered for task_setscheduler only)" \
		grep -qF "cap_task_setscheduler() in foo_task_hook (registered for task_setscheduler): removed" "$d/jobs1.jsonl"
	check "--jobs: foob's helper foo_capable has no cap chain item" \
		test -z "$(grep -F 'jobs/foob.c"' "$d/jobs1.jsonl" | grep -F 'in foo_capable')"
	check "--jobs: only foob's foo_task_free made static again" \
		test "$(grep -c 'foo_task_free() made static again' "$d/jobs1.md")" = 1 -a \
		-n "$(grep -F 'jobs/foob.c:38: foo_task_free() made static again' "$d/jobs1.md")"
}

number() {
	local line
	while IFS= read -r line; do
		case "$line" in
		"ok - "*)
			N=$((N + 1))
			echo "ok $N - ${line#ok - }"
			;;
		"not ok - "*)
			N=$((N + 1))
			FAILED=$((FAILED + 1))
			echo "not ok $N - ${line#not ok - }"
			;;
		*) echo "$line" ;;
		esac
	done
}

main() {
	local c cases=()
	echo "TAP version 13"
	for c in "$CASES"/*/; do
		c=${c%/}
		[[ -d "$c" ]] || continue
		if [[ -n "$PATTERN" && $(basename -- "$c") != *"$PATTERN"* ]]; then
			continue
		fi
		cases+=("$c")
	done
	if ! command -v spatch >/dev/null; then
		skip "cocci fixtures" "spatch is not installed"
	elif [[ ! -f "$TARGET/include/linux/lsm_hook_defs.h" ]]; then
		skip "cocci fixtures" "no target tree at $TARGET (make tree)"
	else
		TMP=$(mktemp -d "${TMPDIR:-/tmp}/lsmconv-cocci.XXXXXX")
		trap cleanup EXIT
		idempotence "${cases[@]}"
		launch "${cases[@]}" &
		# Print each case's results in order, as soon as it is done.
		for c in "${cases[@]}"; do
			while [[ ! -e "$TMP/$(basename -- "$c").done" ]]; do
				sleep 0.2
			done
			number <"$TMP/$(basename -- "$c").tap"
		done
		wait
		if [[ -z "$PATTERN" || $PATTERN == driver ]]; then
			number < <(driver_tests)
		fi
	fi
	echo "1..$N"
	echo "# $((N - FAILED)) passed, $FAILED failed"
	[[ $FAILED -eq 0 ]]
}

main
