#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Hardening of convert.sh file|tree (docs/converter.md, "Guarantees"): bad
# input, odd paths, in-place writing, output directories, failures after
# writing started, signals.  TAP 13, one case one assertion.
#
# usage: tests/robustness/run.sh
#
# Every case but the reference, the three unit cases, "a second run" and
# "no *.lsmconv-tmp.* left" failed with the bash convert.sh this driver
# replaced (CONVERT=/path/to/old/convert.sh tests/robustness/run.sh: 23 of
# 29 not ok):
# it converted nothing and reported conversions for a file or TMPDIR with a
# space and for a read-only input, appended a newline to files without LSM
# code (binaries too), replaced in-place files by new ones (owner, hard
# links, symlinks lost), mixed line endings in CRLF files, took option
# values starting with '-', had no '--', exited 2 on --help, wrote into any
# --out, exited 1 with a traceback on /dev/full, ignored SIGINT to its PID,
# accepted a target with only lsm_hook_defs.h.
#
# The target is a fixture: the six files of the distro tree (TREE=)
# the rules read.  Most cases run only rule 20 (the hook list): the cases
# are about the driver, not the rules.  The cases that need another user
# run as nobody (setpriv, util-linux) and are skipped when not root.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
convert=${CONVERT:-$root/convert.sh}
src=${TREE:-$LSMCONV_DISTRO_TREE}
input=$root/tests/cocci/cases/12-no-name/input.c
files=(include/linux/lsm_hook_defs.h include/linux/lsm_hooks.h include/linux/security.h
	security/security.c security/commoncap.c security/Kconfig)

echo "TAP version 13"
if ! command -v spatch >/dev/null; then
	tap_skip "robustness" "spatch is not installed (make deps)"
	tap_done
	exit
fi
if [ ! -f "$src/include/linux/lsm_hook_defs.h" ]; then
	tap_skip "robustness" "no target tree at $src (make tree)"
	tap_done
	exit
fi

t=$(mktemp -d "${TMPDIR:-/tmp}/lsmconv-robust.XXXXXX")
chmod 755 "$t"
cleanup() {
	chmod -R u+w "$t" 2>/dev/null
	rm -rf -- "$t"
}
trap cleanup EXIT
target=$t/target
for f in "${files[@]}"; do
	mkdir -p "$target/$(dirname "$f")"
	cp -- "$src/$f" "$target/$f"
done
chmod -R a+rX "$target"

# conv ARGS...: convert.sh with the fixture target and the rules $rules
# (default 20), then ARGS; sets rc, out (stdout) and err (stderr).
rules=20
conv() {
	rc=0
	"$convert" "${@:1:1}" --target "$target" --rules "$rules" "${@:2}" \
		>"$t/stdout" 2>"$t/stderr" || rc=$?
	out=$(cat "$t/stdout")
	err=$(cat "$t/stderr")
}

# as_nobody CMD...: run CMD as user nobody (PATH without root's shims).
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env PATH=/usr/bin:/bin HOME=/nonexistent TMPDIR="${TMPDIR:-/tmp}" "$@"
}
nobody_ok=0
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	nobody_ok=1
fi

# The reference: the input converted with a plain name, out of place.
mkdir -p "$t/ref/in"
cp -- "$input" "$t/ref/in/plain.c"
conv file "$t/ref/in/plain.c" --out "$t/ref/out" --report "$t/ref/report.md"
ref=$t/ref/out/plain.c
if [ "$rc" -ne 0 ] || cmp -s "$input" "$ref"; then
	tap_not_ok "reference conversion (exit $rc; it must change the file)"
	tap_diag "$err"
	tap_done
	exit 1
fi
tap_ok "reference conversion of a plain file name"
# report lines of the reference without the file names: FILE:LINE: -> LINE:
strip_names() {
	sed -n 's/^- .*:\([0-9][0-9]*\): /- \1: /p' "$1"
}
strip_names "$t/ref/report.md" >"$t/ref/lines"

# --- units: line mapping and items -------------------------------------------
# linemap on a 40,000-line file with an inserted and a deleted line: a line
# after both keeps its place, a line between them moves by one (the
# SequenceMatcher it replaced took 38 s per rule step on such a file).
unit() {
	PYTHONPATH="$root/cocci" python3 -c "$1"
}
tap_check "linemap: lines map through an insert and a delete of a 40k-line file" unit '
from lsmconv import linemap
a = ["line %d" % (i % 97) if i % 7 else "}" for i in range(40000)]
b = a[:100] + ["new"] + a[100:30000] + a[30001:]
m = linemap.Map(linemap.opcodes(a, b))
assert [m.forward(i) for i in (0, 99, 100, 29999, 30001, 39999)] == [0, 99, 101, 30000, 30001, 39999]
'
tap_check "linemap: a re-parsed element is found in its file (its first line 1 = file line 1001)" unit '
from lsmconv import linemap
whole = ["int f%d(void)" % i if i % 10 == 0 else "{" if i % 10 == 1 else "}" if i % 10 == 9 else "\treturn 0;" for i in range(5000)]
part = ["", "int f1000(void)", "{", "\treturn 0;", "\treturn 0;"]
ops, score = linemap.locate(part, whole)
assert linemap.Map(ops).forward(1) == 1000, ops
'
tap_check "items: a rule line is parsed and its hook found; todos come sorted" unit '
from lsmconv import items as I
k, f, l, d = I.parse_line("LSMCONV\tentry\tx.c\t7\tops: LSM_HOOK_INIT(file_open, f)\tmore")
assert (k, f, l, d) == ("entry", "x.c", "7", "ops: LSM_HOOK_INIT(file_open, f)\tmore")
assert I.hook_of(d, {"file_open"}) == "file_open" and I.hook_of(d, {"other"}) is None
its = [I.Item("b.c", 2, "todo", None, "m", "r"), I.Item("a.c", 9, "todo", None, "m", "r"),
       I.Item("a.c", 10, "todo", None, "m", "r")]
assert [(i.file, i.line) for i in I.todos(its)] == [("a.c", 9), ("a.c", 10), ("b.c", 2)]
'

# --- usage -----------------------------------------------------------------
conv --help
tap_check "--help: exit 0 with the usage on stdout" \
	test "$rc" -eq 0 -a -n "$(grep -F 'usage: convert.sh tree' <<<"$out")"

mkdir -p "$t/dash"
cp -- "$input" "$t/dash/-x.c"
(cd "$t/dash" && conv file -- -x.c && [ "$rc" -eq 0 ] && cmp -s -- -x.c "$ref")
tap_check "-- ends the options: a file named -x.c is converted" test $? -eq 0

cp -- "$input" "$t/dash/y.c"
(cd "$t/dash" && conv file y.c --out --allow-partial &&
	[ "$rc" -eq 2 ] && [ ! -e ./--allow-partial ] && grep -q -- "--out needs" <<<"$err")
tap_check "an option value starting with - is refused (--out --allow-partial: exit 2, no such directory made)" test $? -eq 0

# --- paths -----------------------------------------------------------------
mkdir -p "$t/sp ace"
cp -- "$input" "$t/sp ace/my file.c"
conv file "$t/sp ace/my file.c"
tap_check "a file name with a space is converted in place" \
	cmp -s "$t/sp ace/my file.c" "$ref"

cp -- "$input" "$t/tmpdir.c"
mkdir -p "$t/tmp dir"
rc=0
TMPDIR="$t/tmp dir" "$convert" file "$t/tmpdir.c" --target "$target" --rules 20 \
	>/dev/null 2>"$t/stderr" || rc=$?
tap_check "a TMPDIR with a space: converted (exit $rc)" cmp -s "$t/tmpdir.c" "$ref"

name=$(printf 'caf\351.c')
cp -- "$input" "$t/$name"
conv file "$t/$name" --report "$t/latin1.md"
tap_check "a file name that is not UTF-8 is converted and named in the report" \
	test "$rc" -eq 0 -a "$(LC_ALL=C grep -c "$name" "$t/latin1.md")" -gt 0 -a -z "$(cmp "$t/$name" "$ref" 2>&1)"

# --- in place ---------------------------------------------------------------
cp -- "$input" "$t/real.c"
ln -s real.c "$t/link.c"
conv file "$t/link.c"
tap_check "a symlink stays a symlink and its target is converted" \
	test -L "$t/link.c" -a -z "$(cmp "$t/real.c" "$ref" 2>&1)"

cp -- "$input" "$t/hard1.c"
ln "$t/hard1.c" "$t/hard2.c"
conv file "$t/hard1.c"
tap_check "hard links stay one file (both names converted)" \
	test "$(stat -c %h "$t/hard1.c")" -eq 2 -a -z "$(cmp "$t/hard2.c" "$ref" 2>&1)"

if [ "$nobody_ok" -eq 1 ]; then
	cp -- "$input" "$t/owned.c"
	chown 65534:65534 "$t/owned.c"
	chmod 640 "$t/owned.c"
	conv file "$t/owned.c"
	tap_check "in place as root keeps the owner and the mode (nobody, 640)" \
		test "$(stat -c '%u %a' "$t/owned.c")" = "65534 640" -a -z "$(cmp "$t/owned.c" "$ref" 2>&1)"
else
	tap_skip "in place keeps owner and mode" "needs root to chown"
fi

printf 'int a;\r\nint b;\r\n' >"$t/crlf-head"
{ cat "$t/crlf-head"; sed 's/$/\r/' "$input"; } >"$t/crlf.c"
{ printf 'int a;\nint b;\n'; cat "$input"; } >"$t/lf.c"
rules=11,12,20
conv file "$t/lf.c" --report "$t/lf.md"
conv file "$t/crlf.c" --report "$t/crlf.md"
rules=20
tap_check "a CRLF file stays CRLF (no bare LF) and converts like its LF twin (rules 11, 12, 20)" \
	test "$(grep -c $'[^\r]$' "$t/crlf.c")" -eq 0 -a -z "$(tr -d '\r' <"$t/crlf.c" | cmp - "$t/lf.c" 2>&1)"
tap_check "CRLF: the report has the same lines as for the LF twin" \
	test "$(strip_names "$t/crlf.md")" = "$(strip_names "$t/lf.md")" -a -n "$(strip_names "$t/lf.md")"

printf 'binary\0data\001\002 security_ops' >"$t/blob.c"
cp -- "$t/blob.c" "$t/blob.orig"
printf 'int no_newline_at_end(void) { return 0; }' >"$t/nonl.c"
cp -- "$t/nonl.c" "$t/nonl.orig"
conv file "$t/blob.c" "$t/nonl.c" --report "$t/blob.md"
tap_check "a binary and a file without final newline stay byte-identical" \
	test -z "$(cmp "$t/blob.c" "$t/blob.orig" 2>&1)$(cmp "$t/nonl.c" "$t/nonl.orig" 2>&1)"
tap_check "... and are not counted as changed" grep -qF -- "- files: 2 processed, 0 changed" "$t/blob.md"

cp -- "$input" "$t/twice.c"
conv file "$t/twice.c"
cp -- "$t/twice.c" "$t/twice.first"
conv file "$t/twice.c" --report "$t/twice.md"
tap_check "a second run changes nothing and says so" \
	test -z "$(cmp "$t/twice.c" "$t/twice.first" 2>&1)" -a -n "$(grep -F -- '- files: 1 processed, 0 changed' "$t/twice.md")"

if [ "$nobody_ok" -eq 1 ]; then
	mkdir -p "$t/ro"
	cp -- "$input" "$t/ro/ro.c"
	chown -R 65534:65534 "$t/ro"
	chmod 444 "$t/ro/ro.c"
	rc=0
	as_nobody "$convert" file "$t/ro/ro.c" --target "$target" --rules 20 \
		>"$t/stdout" 2>"$t/stderr" || rc=$?
	tap_check "a read-only input converted in place by a non-root user is refused (exit $rc), unchanged" \
		test "$rc" -eq 2 -a -z "$(cmp "$t/ro/ro.c" "$input" 2>&1)" -a -n "$(grep -F "$t/ro/ro.c" "$t/stderr")"
	rc=0
	as_nobody "$convert" file "$t/ro/ro.c" --target "$target" --rules 20 --out "$t/ro/out" \
		--report "$t/ro/ro.md" >/dev/null 2>"$t/stderr" || rc=$?
	n=$(grep -c 'LSM_HOOK_INIT' "$t/ro/out/ro.c" 2>/dev/null)
	tap_check "a read-only input with --out: the report counts exactly the entries written ($n)" \
		grep -qE "^\| $t/ro/ro.c \| ${n:-x} \| " "$t/ro/ro.md"
else
	tap_skip "read-only input as a non-root user" "needs root to switch to nobody"
	tap_skip "read-only input with --out" "needs root to switch to nobody"
fi

# --- outputs ----------------------------------------------------------------
mkdir -p "$t/foreign"
echo keep >"$t/foreign/mine.txt"
conv file "$input" --out "$t/foreign"
tap_check "--out non-empty and not lsmconv's is refused (exit $rc), left alone" \
	test "$rc" -eq 2 -a "$(ls -A "$t/foreign")" = mine.txt
conv file "$input" --out "$t/foreign" --force
tap_check "... --force writes into it, keeping the other files" \
	test "$rc" -eq 0 -a -f "$t/foreign/mine.txt" -a -z "$(cmp "$t/foreign/input.c" "$ref" 2>&1)"

conv file "$input" --out "$t/ours"
conv file "$input" --out "$t/ours"
tap_check "an --out lsmconv wrote is reused (exit $rc)" test "$rc" -eq 0 -a -f "$t/ours/.lsmconv-out"

if [ "$nobody_ok" -eq 1 ]; then
	mkdir -p "$t/locked"
	rc=0
	as_nobody "$convert" file "$input" --target "$target" --rules 20 --out "$t/locked/out" \
		>/dev/null 2>"$t/stderr" || rc=$?
	tap_check "an unwritable --out is refused up front (exit $rc), nothing made, no traceback" \
		test "$rc" -eq 2 -a ! -e "$t/locked/out" -a -z "$(grep Traceback "$t/stderr")"
else
	tap_skip "unwritable --out" "needs root to switch to nobody"
fi

cp -- "$input" "$t/full.c"
conv file "$t/full.c" --report /dev/full
tap_check "--report /dev/full: exit 3 naming what was written, no traceback" \
	test "$rc" -eq 3 -a -n "$(grep -F "$t/full.c" <<<"$err")" -a -z "$(grep Traceback <<<"$err")"
tap_check "no *.lsmconv-tmp.* file left anywhere" test -z "$(find "$t" -name '*lsmconv-tmp*')"

# --- target -----------------------------------------------------------------
mkdir -p "$t/partial/include/linux"
cp -- "$target/include/linux/lsm_hook_defs.h" "$t/partial/include/linux/"
rc=0
"$convert" file "$input" --target "$t/partial" --out "$t/partial-out" >/dev/null 2>"$t/stderr" || rc=$?
tap_check "a --target with only lsm_hook_defs.h is refused (exit $rc) naming a missing file" \
	test "$rc" -eq 2 -a ! -e "$t/partial-out" -a -n "$(grep -F 'include/linux/security.h' "$t/stderr")"

# A stacked target (lsm_hook_defs.h) without lsm_hooks.h looked older than
# 5.1: security_initcall() was kept, exit 0 (the fuzzer's finding F6)
mkdir -p "$t/nohooks"
cp -R -- "$target/." "$t/nohooks/"
rm -f -- "$t/nohooks/include/linux/lsm_hooks.h"
rc=0
"$convert" file "$input" --target "$t/nohooks" --out "$t/nohooks-out" >/dev/null 2>"$t/stderr" || rc=$?
tap_check "a stacked --target without lsm_hooks.h is refused (exit $rc) naming it, nothing written" \
	test "$rc" -eq 2 -a ! -e "$t/nohooks-out" -a -n "$(grep -F 'include/linux/lsm_hooks.h' "$t/stderr")"

# A module's own header under security/ with legacy API was never read in
# tree mode: exit 0 with it left (the fuzzer's finding F3)
mkdir -p "$t/hdr/security/mod" "$t/hdr/include/linux"
cp -- "$input" "$t/hdr/security/mod/mod.c"
printf '#include <linux/security.h>\nextern struct security_operations mod_ops;\n' \
	>"$t/hdr/security/mod/mod.h"
conv tree "$t/hdr" --rules 10,20 --out "$t/hdr-out" --items "$t/hdr.jsonl"
tap_check "tree mode reads security/**/*.h: a header's extern ops struct is a todo at its line (exit $rc)" \
	test "$rc" -eq 1 -a -n "$(grep -F '"line": 2' "$t/hdr.jsonl" | grep -F 'mod/mod.h' | grep -F '"todo"')"

# --- the hostile round's areas (issue 29), one file each ---------------------
# tests/robustness/NN-AREA.sh: sourced here, with conv, as_nobody, $t,
# $target, $input and the TAP helpers; each case one assertion.
for part in "$root"/tests/robustness/[0-9][0-9]-*.sh; do
	[ -f "$part" ] || continue
	# shellcheck source=/dev/null
	. "$part"
done

# --- signals ------------------------------------------------------------------
# interrupt SIG: convert.sh (every rule, two files, --jobs 2: spatch workers,
# a private TMPDIR, an empty current directory) in its own session, the signal to the driver's
# PID once spatch runs; sets rc, left (processes left in the session),
# tmpleft (files left in TMPDIR or the current directory, where spatch
# --jobs makes its workers' directories unless given --tmp-dir).
interrupt() {
	local sig=$1 pid
	rm -rf "$t/sig" && mkdir -p "$t/sig/tmp" "$t/sig/cwd"
	cp -- "$input" "$t/sig/in.c"
	cp -- "$input" "$t/sig/in2.c"
	(cd "$t/sig/cwd" && TMPDIR=$t/sig/tmp in_session "$convert" file "$t/sig/in.c" \
		"$t/sig/in2.c" --target "$target" --jobs 2 --out "$t/sig/out" >/dev/null 2>"$t/sig/err") &
	pid=$!
	signal_mid_run "$sig" "$pid"
	tmpleft=$(find "$t/sig/tmp" "$t/sig/cwd" -mindepth 1 | wc -l)
}
for sig in INT TERM; do
	interrupt "$sig"
	want=$((128 + $(kill -l "$sig")))
	tap_check "SIG$sig mid-run: exit $want (got $rc), 'interrupted', no process left ($left), no temp file ($tmpleft), no --out" \
		test "$rc" -eq "$want" -a "$left" -eq 0 -a "$tmpleft" -eq 0 -a ! -e "$t/sig/out" \
		-a -n "$(grep -F interrupted "$t/sig/err")"
done

tap_done
