#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The manifest (cocci/manifest.tsv, read by lsmconv.manifest): every
# cocci/NN-*.cocci is a rule row, every rule row's file exists, a rule's
# kind agrees with its `// Text pass:` header, and forward.py has a
# function for every forward step.  Mutations, run here so the check
# cannot pass vacuously: a manifest copy without its last rule row must
# fail naming that rule's file; one whose first rule row names a file
# that does not exist must fail naming it.
# Then pyflakes over lsmconv's Python: one case per tracked .py file (and
# every .py of the cocci/lsmconv package, tracked or not yet), so a failure
# names the file and pyflakes' messages follow as TAP diagnostics.  The
# interpreter is python3 if it has pyflakes (Debian python3-pyflakes),
# else /usr/bin/python3.
# Mutation check: an unused import added to a module makes its case fail
# (tests/lint/run.sh shows `not ok N - pyflakes cocci/lsmconv/X.py`).
# The exit-code table: see the comment above its cases.
#
# Prints TAP 13.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh
echo "TAP version 13"

# manifest ARGS: python3 -m lsmconv.manifest ARGS, stderr kept in $mf_err.
work=$(mktemp -d "${TMPDIR:-/tmp}/lsmconv-lint.XXXXXX")
trap 'rm -rf "$work"' EXIT
mf_err=$work/manifest.err
manifest() {
	PYTHONPATH="$root/cocci${PYTHONPATH:+:$PYTHONPATH}" python3 -m lsmconv.manifest "$@" 2>"$mf_err"
}
if manifest check; then
	tap_ok "manifest: every cocci/NN-*.cocci is a rule of cocci/manifest.tsv, every rule's file exists"
else
	tap_not_ok "manifest: every cocci/NN-*.cocci is a rule of cocci/manifest.tsv, every rule's file exists"
	tap_diag "$(cat "$mf_err")"
fi
missing=()
if steps=$(manifest steps); then
	while IFS=$'\t' read -r _ _ cmds; do
		IFS=';' read -r -a cmds <<<"$cmds"
		for c in "${cmds[@]}"; do
			[[ $c == "forward "* ]] || continue
			c=${c#forward }
			grep -q "^def step_${c//-/_}(" cocci/forward/forward.py || missing+=("$c")
		done
	done <<<"$steps"
else
	missing+=("(manifest steps failed: $(cat "$mf_err"))")
fi
tap_check "manifest: forward.py has a step_NAME for every forward step${missing[*]:+ (missing: ${missing[*]})}" \
	test ${#missing[@]} -eq 0
# failed_naming PATTERN: the mutant's check exited 1 with PATTERN in its errors.
failed_naming() {
	[ "$rc" -eq 1 ] && grep -q -- "$1" "$mf_err"
}
# Mutation 1: the last rule row removed (no later row can depend on it).
last=$(awk -F'\t' '$1 == "rule" { n = NR } END { print n }' cocci/manifest.tsv)
awk -F'\t' -v n="$last" 'NR == n { print $3 >"/dev/stderr"; next } { print }' \
	cocci/manifest.tsv >"$work/dropped.tsv" 2>"$work/dropped.file"
dropped=$(cat "$work/dropped.file")
rc=0
manifest --manifest "$work/dropped.tsv" --cocci cocci check || rc=$?
tap_check "manifest mutation: without the row of cocci/$dropped the check fails naming it (exit $rc)" \
	failed_naming "cocci/$dropped: not a rule"
# Mutation 2: the first rule row names a file that does not exist.
awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "rule" && !done { done = 1; $3 = $2 "-gone.cocci" } { print }' \
	cocci/manifest.tsv >"$work/gone.tsv"
rc=0
manifest --manifest "$work/gone.tsv" --cocci cocci check || rc=$?
tap_check "manifest mutation: a rule row whose file is missing fails naming it (exit $rc)" \
	failed_naming "no file cocci/[0-9]*-gone\.cocci"

# The second lane of tests/run.sh (BESIDE): a suite that runs at once beside
# the others must not build or boot a kernel nor use what such a suite makes;
# one that waits for a first-lane suite (SUITE:AFTER) may, but must not use
# what the first-lane suites still running beside it write (tests/pipeline:
# make verify's build/verify and build/pipeline-test; tests/rewind); and
# build/baseline, which both lanes read, is written only by make_baseline
# (tests/lib.sh), first in the second lane.  Mutations: the same checks with
# boot added to the lane, with verify using make verify's build/verify, and
# with a suite line that rewinds into build/baseline, must name them.
shared='build/kernels|build-kernel\.sh|boot-variants\.sh|qemu-boot/run\.sh|port\.sh|pipeline\.sh|build-initramfs\.sh'
later='pipeline\.sh|build/pipeline-test|build/verify([^-]|$)|build/rewind-test|tests/rewind'
lane_clash() {	# lane_clash REGEX FILE...: "SUITE: what" for each use of REGEX
	local re=$1 f
	shift
	for f in "$@"; do
		# commands (not comments) joined with their continuation lines;
		# make verify run with a --work of the suite's own is not make
		# verify's build/verify
		# shellcheck disable=SC2016 # '$work' is the suite's text, not ours
		sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$f" | grep -v '^[[:space:]]*#' |
			if [ "$re" = "$later" ]; then grep -v -- 'pipeline\.sh.*--work "\$work/'; else cat; fi |
			grep -oE "$re" | sort -u | sed "s|^|$(basename "$(dirname "$f")"): |"
	done
}
beside=$(sed -n 's/^BESIDE="\(.*\)"$/\1/p' tests/run.sh)
now=() after=()
for e in $beside; do
	if [ "${e#*:}" = "$e" ]; then now+=("tests/$e/run.sh"); else after+=("tests/${e%%:*}/run.sh"); fi
done
lanes_bad=$(lane_clash "$shared" "${now[@]}")
tap_check "tests/run.sh's second lane: its suites that start at once (${now[*]}) build and boot nothing" \
	test ${#now[@]} -gt 0 -a -z "$lanes_bad"
[ -z "$lanes_bad" ] || tap_diag "$lanes_bad"
mutant=$(lane_clash "$shared" "${now[@]}" tests/boot/run.sh)
tap_check "lane mutation: boot in the second lane is named (it builds kernels)" \
	grep -qx 'boot: build/kernels' <<<"$mutant"
lanes_bad=$(lane_clash "$later" "${after[@]}")
tap_check "its suites that wait (${after[*]}) use nothing tests/pipeline or tests/rewind writes" \
	test ${#after[@]} -gt 0 -a -z "$lanes_bad"
[ -z "$lanes_bad" ] || tap_diag "$lanes_bad"
mkdir -p "$work/verify"
sed 's|^O=.*|O=build/verify|' tests/verify/run.sh >"$work/verify/run.sh"
mutant=$(lane_clash "$later" "${after[@]}" "$work/verify/run.sh")
tap_check "lane mutation: verify building into make verify's build/verify is named" \
	grep -qx 'verify: build/verify' <<<"$mutant"
mkdir -p "$work/v21-boot"
# shellcheck disable=SC2016 # the suite's text
sed 's|--work "$work/verify" ||' tests/v21-boot/run.sh >"$work/v21-boot/run.sh"
mutant=$(lane_clash "$later" "${after[@]}" "$work/v21-boot/run.sh")
tap_check "lane mutation: make verify run without a --work of the suite's own is named" \
	grep -qx 'v21-boot: pipeline.sh' <<<"$mutant"
# baseline_writers FILE...: the lines that give build/baseline as an --out,
# literally or as $base after a base=build/baseline.
baseline_writers() {
	awk 'FNR == 1 { b = 0 }
		/^[ \t]*base=/ { b = ($0 ~ /build\/baseline/) }
		/--out +"?(\$root\/)?build\/baseline/ || (b && /--out +"?\$\{?base\}?"?( |$)/) {
			print FILENAME ":" FNR ": " $0
		}' "$@"
}
writers=$(baseline_writers tests/*/run.sh)
tap_check "no suite writes build/baseline (only make_baseline does)" test -z "$writers"
[ -z "$writers" ] || tap_diag "$writers"
# shellcheck disable=SC2016 # a line of shell, not expanded
printf '%s\n' 'base=build/baseline' '"$rw" --tree "$src" --out "$base" --series x' >"$work/writer.sh"
tap_check "writer mutation: a suite that rewinds into its base=build/baseline is named" \
	test -n "$(baseline_writers "$work/writer.sh")"

# The exit-code table (docs/CONTRACTS.md): scripts/lib.sh's EXIT_* and
# lsmconv.exits agree; no command script exits with a bare 1 or 3, a failed
# step is 3 (die), a bad TARGET is 2 in every branch of lib.sh
# (tests/lint/exitcodes.py: what it reads, what it leaves out and why).
# Mutations, in scratch copies: port.sh exiting 1 for a failed build step,
# and a die() that exits 1, must each fail naming the place.
rc=0
out=$(python3 tests/lint/exitcodes.py "$root" 2>"$work/exit-exempt") || rc=$?
tap_check "exit codes: every command exits by the one table (tests/lint/exitcodes.py, exit $rc)" test "$rc" = 0
[ -z "$out" ] || tap_diag "$out"
tap_diag "$(cat "$work/exit-exempt")"
# exit_of CMD...: the exit status of CMD (its output dropped)
exit_of() {
	local rc=0
	"$@" >/dev/null 2>&1 || rc=$?
	echo "$rc"
}
tap_check "exit codes: die (a failed step) exits 3" \
	test "$(exit_of bash -c '. scripts/lib.sh; die x')" = 3
tap_check "exit codes: die_log exits 3" test "$(exit_of bash -c '. scripts/lib.sh; die_log /dev/null x')" = 3
tap_check "exit codes: die_usage exits 2" test "$(exit_of bash -c '. scripts/lib.sh; die_usage x')" = 2
tap_check "exit codes: a bad TARGET exits 2 when lib.sh is sourced" \
	test "$(LSMCONV_TARGET=9.9 exit_of bash -c '. scripts/lib.sh')" = 2
tap_check "exit codes: a bad TARGET exits 2 in target_tree" \
	test "$(exit_of bash -c '. scripts/lib.sh; target_tree 9.9')" = 2
# mutant_root NAME: a scratch tree with the files exitcodes.py reads
mutant_root() {
	local m=$work/$1 f
	for f in scripts/lib.sh cocci/lsmconv/__init__.py cocci/lsmconv/exits.py verify/port.sh; do
		mkdir -p "$m/$(dirname "$f")"
		cp "$f" "$m/$f"
	done
	echo "$m"
}
# make port printed the attribution of compile errors through `sed | head
# -20`, which under pipefail died with SIGPIPE (141) on long outputs (issue
# 27; tests/port attributes 300 errors through lsmconv.buildattr --show).
heads=$(grep -nE '\| *head\b' verify/port.sh)
tap_check "verify/port.sh pipes nothing into head (SIGPIPE under pipefail)" test -z "$heads"
[ -z "$heads" ] || tap_diag "$heads"
# caught PATTERN: the mutant's check exited 1 naming PATTERN
caught() { [ "$rc" = 1 ] && grep -q -- "$1" <<<"$out"; }
# shellcheck disable=SC2016 # the scripts' own text: "$EXIT_FAILED" unexpanded
failed_exit='exit "$EXIT_FAILED"'
m=$(mutant_root exit-port)
grep -qF "$failed_exit" "$m/verify/port.sh" &&
	sed -i "0,/$failed_exit/s//exit 1/" "$m/verify/port.sh"
rc=0
out=$(python3 tests/lint/exitcodes.py "$m" 2>/dev/null) || rc=$?
tap_check "exit-code mutation: port.sh exiting 1 for a failed build step fails naming it (exit $rc)" \
	caught "^verify/port.sh:[0-9]*: exit 1"
m=$(mutant_root exit-die)
sed -i "/^die() {/,/^}/s/$failed_exit/exit 1/" "$m/scripts/lib.sh"
rc=0
out=$(python3 tests/lint/exitcodes.py "$m" 2>/dev/null) || rc=$?
tap_check "exit-code mutation: a die() that exits 1 fails naming it (exit $rc)" caught "die() must exit"

# The output-safety layer (docs/CONTRACTS.md): every Python command entry
# (driver.py, port.py) calls fsio.check_paths() and opens no output itself,
# every shell command with an output directory calls guard_out (series.sh
# also lsmconv.fsio check-paths) or is exempt with its reason
# (tests/lint/fsiocheck.py).  Mutations, in scratch copies: port.py without
# its check_paths() call, and driver.py writing the report with open(), must
# each fail naming the file.
# fsio_run TREE: fsiocheck.py on TREE; sets rc and out (for caught)
fsio_run() {
	rc=0
	out=$(python3 tests/lint/fsiocheck.py "$1") || rc=$?
}
fsio_run "$root"
tap_check "output safety: driver.py and port.py call fsio.check_paths and write outputs only through fsio; every shell command with an output directory calls guard_out or is exempt with its reason (exit $rc)" \
	test "$rc" = 0
[ -z "$out" ] || tap_diag "$out"
# fsio_mutant NAME: a scratch tree with the entries fsiocheck.py reads
fsio_mutant() {
	local m=$work/$1
	mkdir -p "$m/cocci/lsmconv"
	cp cocci/lsmconv/driver.py cocci/lsmconv/port.py "$m/cocci/lsmconv/"
	echo "$m"
}
m=$(fsio_mutant fsio-call)
sed -i 's/fsio\.check_paths(/(/' "$m/cocci/lsmconv/port.py"
fsio_run "$m"
tap_check "output-safety mutation: port.py without fsio.check_paths() fails naming it (exit $rc)" \
	caught "^cocci/lsmconv/port.py:0: never calls fsio.check_paths"
m=$(fsio_mutant fsio-open)
sed -i 's/^def convert(o):$/&\n    open(o.report, "wb").close()/' "$m/cocci/lsmconv/driver.py"
fsio_run "$m"
tap_check "output-safety mutation: driver.py opening --report itself fails naming the line (exit $rc)" \
	caught "^cocci/lsmconv/driver.py:[0-9]*: opens a file for writing"
# the shell commands: series.sh without its check-paths call, and a new
# command with an --out option that guards nothing, each named
m=$(fsio_mutant fsio-shell)
mkdir -p "$m/scripts"
grep -v 'lsmconv.fsio check-paths' scripts/series.sh >"$m/scripts/series.sh"
# shellcheck disable=SC2016 # a script's text, unexpanded
printf 'case $1 in\n--out) out=$2 ;;\nesac\n' >"$m/scripts/new.sh"
git -C "$m" init -q && git -C "$m" add -A
fsio_run "$m"
tap_check "output-safety mutation: series.sh without lsmconv.fsio check-paths fails naming it (exit $rc)" \
	caught "^scripts/series.sh:0: never calls lsmconv.fsio check-paths"
tap_check "output-safety mutation: a new command with --out and no guard_out is named (exit $rc)" \
	caught "^scripts/new.sh:0: takes an output directory"

# --help: every command script (tracked, executable, outside tests/) has a
# -h/--help branch (show_help in scripts/lib.sh: its header on stdout, exit
# 0); not scripts/lib.sh (a library) nor convert.sh (its --help is the
# Python driver's, run by tests/robustness).  Static: running a script that
# ignores --help would run it.  Mutation: a copy without the branch fails.
# no_help FILE...: the files without a --help branch.
no_help() {
	local f
	for f in "$@"; do
		grep -qE -- '-h \| --help\)' "$f" || echo "$f"
	done
}
mapfile -t cmds < <(git ls-files -s '*.sh' | awk '$1 == "100755" { print $4 }' |
	grep -vE '^(tests/|scripts/lib\.sh$|convert\.sh$)')
nohelp=$(no_help "${cmds[@]}")
tap_check "--help: every one of the ${#cmds[@]} command scripts handles -h/--help${nohelp:+ (not: $nohelp)}" \
	test -z "$nohelp" -a "${#cmds[@]}" -gt 10
grep -vE -- '-h \| --help\)' scripts/tree.sh >"$work/tree.sh"
tap_check "--help mutation: scripts/tree.sh without its branch is named" \
	test "$(no_help "$work/tree.sh")" = "$work/tree.sh"

py=""
for cand in python3 /usr/bin/python3; do
	if "$cand" -m pyflakes --version >/dev/null 2>&1; then
		py=$cand
		break
	fi
done
if [ -z "$py" ]; then
	tap_skip "pyflakes" "python3 -m pyflakes not available (make deps: python3-pyflakes)"
	tap_done
	exit
fi
mapfile -t files < <({
	git ls-files '*.py'
	find cocci/lsmconv -name '*.py' -type f
} | LC_ALL=C sort -u)
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	if out=$("$py" -m pyflakes "$f" 2>&1); then
		tap_ok "pyflakes $f"
	else
		tap_not_ok "pyflakes $f"
		tap_diag "$out"
	fi
done
tap_done
