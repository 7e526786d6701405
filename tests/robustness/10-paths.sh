# shellcheck shell=bash disable=SC2154 # t, target, input, ref, root, convert: run.sh's
# SPDX-License-Identifier: GPL-2.0
# Issue 29, area "paths": the inputs and outputs of convert.sh file, tree and
# port (lsmconv.fsio's output-safety layer, docs/converter.md "Guarantees",
# docs/porting.md).  Sourced by tests/robustness/run.sh with its helpers
# (conv, as_nobody, $t, $target, $input, $ref, $root, $convert).
#
# Shown failing on the old code (TREE=build/linux-source-6.1 and this file
# sourced by the suite of a `git worktree add /tmp/old 51b30aa`, the
# commit before the fix, under ulimit -v 3000000: 33 of 38 not ok): every
# case fails there but the ones marked "guard", which held already and
# are kept so that they keep holding: an output equal to an input or
# to another output was written (exit 0, the module replaced by the
# report; --report = --items found only after the whole run), port hung
# on a FIFO (killed by the timeout), read /dev/zero, gave a traceback on a
# dangling or looping link, turned CRLF into LF, took no lock, left its
# temporary folder on SIGTERM and the driver's on SIGINT and on a bad
# target (an lsm_hook_defs.h it cannot read: file mode too), took a
# directory as --report; tree mode skipped FIFOs, devices, dangling links
# and symlinked sources silently with exit 0; the porting guide's example
# (--report inside --out) was refused; spatch said "Not_found" without
# HOME; a 240-byte file name failed; root converted a 0444 file in place;
# --help after another option was an error.
p10=$t/10
mkdir -p "$p10"

# port_run DIR ARGS...: convert.sh port DIR --name p10 --target $target
# ARGS (timeout 60 s: a hang is exit 124); sets rc and err.
port_run() {
	local d=$1
	shift
	rc=0
	timeout 60 "$convert" port "$d" --name p10 --target "$target" "$@" \
		>"$p10/stdout" 2>"$p10/stderr" || rc=$?
	err=$(cat "$p10/stderr")
}
# named_not_read NAME REPORT: exit 1, no traceback, NAME on stderr and a
# todo of REPORT at NAME:0 saying it was not read
named_not_read() {
	[ "$rc" -eq 1 ] && ! grep -q Traceback <<<"$err" && grep -qF "$1" <<<"$err" &&
		grep -q "$1:0: .*not read" "$2"
}

# --- an output that is an input, or another output ---------------------------
mkdir -p "$p10/same"
for opt in --report --items; do
	cp -- "$input" "$p10/same/x.c"
	conv file "$p10/same/x.c" "$opt" "$p10/same/x.c"
	tap_check "paths: $opt equal to the input is refused (exit $rc), the module unchanged" \
		test "$rc" -eq 2 -a -z "$(cmp "$p10/same/x.c" "$input" 2>&1)"
done
cp -- "$input" "$p10/same/x.c"
ln -sf x.c "$p10/same/sym.md"
conv file "$p10/same/x.c" --report "$p10/same/sym.md"
tap_check "paths: --report a symlink to the input is refused (exit $rc), naming both" \
	test "$rc" -eq 2 -a -z "$(cmp "$p10/same/x.c" "$input" 2>&1)" \
	-a -n "$(grep -F "$p10/same/sym.md" <<<"$err" | grep -F "$p10/same/x.c")"
ln -f "$p10/same/x.c" "$p10/same/hard.md"
conv file "$p10/same/x.c" --report "$p10/same/hard.md"
tap_check "paths: --report a hard link of the input is refused (exit $rc)" \
	test "$rc" -eq 2 -a -z "$(cmp "$p10/same/x.c" "$input" 2>&1)"
conv file "$p10/same/x.c" --out "$p10/same/out" --report "$p10/same/r.md" --items "$p10/same/r.md"
tap_check "paths: --report = --items is refused up front (exit $rc): no rule run, nothing written" \
	test "$rc" -eq 2 -a ! -e "$p10/same/out" -a ! -e "$p10/same/r.md" \
	-a -z "$(grep -F 'rule 20' <<<"$err")"
mkdir -p "$p10/same/out"
conv file "$p10/same/x.c" --out "$p10/same/out" --report "$p10/same/out/x.c"
tap_check "paths: --report = a file --out writes is refused (exit $rc), nothing written" \
	test "$rc" -eq 2 -a -z "$(ls -A "$p10/same/out")"

# the one layer's CLI (for scripts/series.sh)
fsio_cli() {
	rc=0
	PYTHONPATH="$root/cocci" python3 -m lsmconv.fsio check-paths "$@" 2>"$p10/stderr" || rc=$?
	err=$(cat "$p10/stderr")
}
fsio_cli --input "$p10/same/x.c" --output "$p10/same/sym.md"
tap_check "paths: lsmconv.fsio check-paths: an output that is an input (a symlink) exits 2 naming both" \
	test "$rc" -eq 2 -a -n "$(grep -F "$p10/same/x.c" <<<"$err" | grep -F sym.md)"
fsio_cli --input "$p10/same/x.c" --output "$p10/same/other.md" "$p10/same/out"
tap_check "paths: lsmconv.fsio check-paths: distinct paths exit 0 (got $rc) (guard)" test "$rc" -eq 0

mkdir -p "$p10/pin"
cp -- "$input" "$p10/pin/x.c"
port_run "$p10/pin" --out "$p10/pout" --report "$p10/pin/x.c"
tap_check "paths: port --report DIR/x.c (an input) is refused (exit $rc), the module unchanged" \
	test "$rc" -eq 2 -a -z "$(cmp "$p10/pin/x.c" "$input" 2>&1)"
mkdir -p "$p10/rdir"
port_run "$p10/pin" --out "$p10/pout" --report "$p10/rdir"
tap_check "paths: port --report DIR (a directory) is refused up front (exit $rc), nothing written" \
	test "$rc" -eq 2 -a ! -e "$p10/pout" -a -z "$(ls -A "$p10/rdir")"
port_run "$p10/pin" --out "$p10/pout" --report "$p10/p.md" --items "$p10/p.md"
tap_check "paths: port --report = --items is refused up front (exit $rc)" \
	test "$rc" -eq 2 -a ! -e "$p10/pout" -a ! -e "$p10/p.md"

# --- inputs that are not regular files -----------------------------------------
# port: named and skipped (a todo each: never an all-clear), never opened
mkdir -p "$p10/fifo" "$p10/zero" "$p10/dang" "$p10/loop"
for d in fifo zero dang loop; do cp -- "$input" "$p10/$d/x.c"; done
mkfifo "$p10/fifo/f.c"
ln -s /dev/zero "$p10/zero/z.c"
ln -s nowhere "$p10/dang/d.c"
ln -s l.c "$p10/loop/l.c"
for d in fifo:f.c:FIFO zero:z.c:/dev/zero dang:d.c:dangling loop:l.c:loop; do
	IFS=: read -r dir name what <<<"$d"
	port_run "$p10/$dir" --out "$p10/$dir.out" --report "$p10/$dir.md"
	tap_check "paths: port with a $what named $name: exit 1 (got $rc), named as not read, no traceback" \
		named_not_read "$name" "$p10/$dir.md"
done
# file mode: refused (exit 2), never opened (guard: held before)
conv file "$p10/fifo/f.c" --out "$p10/fifo-file"
tap_check "paths: file mode refuses a FIFO (exit $rc), naming it (guard)" \
	test "$rc" -eq 2 -a -n "$(grep -F 'f.c: a FIFO' <<<"$err")"
conv file "$p10/zero/z.c" --out "$p10/zero-file"
tap_check "paths: file mode refuses a link to /dev/zero (exit $rc) (guard)" test "$rc" -eq 2
conv file "$p10/dang/d.c" --out "$p10/dang-file"
tap_check "paths: file mode refuses a dangling link (exit $rc), naming it dangling" \
	test "$rc" -eq 2 -a -n "$(grep -F dangling <<<"$err")"

# tree mode: reads every legacy-bearing source it can, names the rest
mktree() {
	rm -rf -- "$1"
	mkdir -p "$1/security/mod" "$1/include/linux"
}
mktree "$p10/tree1"
cp -- "$input" "$p10/tree1/security/mod/a.c"
mkfifo "$p10/tree1/security/mod/f.c"
ln -s /dev/zero "$p10/tree1/security/mod/z.c"
ln -s gone.c "$p10/tree1/security/mod/d.c"
conv tree "$p10/tree1" --allow-partial --report "$p10/tree1.md"
n=$(grep -c ':0: not read' "$p10/tree1.md")
tap_check "paths: tree mode names a FIFO, a link to /dev/zero and a dangling link ($n of 3), never opened" \
	test "$n" -eq 3 -a "$rc" -eq 0
conv tree "$p10/tree1" --out "$p10/tree1.out"
tap_check "paths: ... and never exits 0 over them (exit $rc)" test "$rc" -eq 1

mktree "$p10/tree2"
mkdir -p "$p10/tree2/vendor"
cp -- "$input" "$p10/tree2/vendor/v.c"
ln -s ../../vendor/v.c "$p10/tree2/security/mod/v.c"
ln -s v.c "$p10/tree2/security/mod/w.c"
conv tree "$p10/tree2" --report "$p10/tree2.md"
tap_check "paths: tree mode converts a symlinked source inside the tree once (exit $rc, 1 file)" \
	test "$rc" -eq 0 -a -z "$(cmp "$p10/tree2/vendor/v.c" "$ref" 2>&1)" \
	-a -n "$(grep -F -- '- files: 1 processed, 1 changed' "$p10/tree2.md")"
mktree "$p10/tree3"
mkdir -p "$p10/outside"
cp -- "$input" "$p10/outside/o.c"
ln -s ../../../outside/o.c "$p10/tree3/security/mod/o.c"
conv tree "$p10/tree3" --report "$p10/tree3.md"
tap_check "paths: tree mode names a symlink to a legacy source outside the tree (exit $rc), leaves it" \
	test "$rc" -eq 1 -a -z "$(cmp "$p10/outside/o.c" "$input" 2>&1)" \
	-a -n "$(grep -F 'security/mod/o.c:0: not converted: a symlink' "$p10/tree3.md")"

# --- encodings: BOM, CRLF, Latin-1 round-trip byte for byte --------------------
mkdir -p "$p10/enc/lf" "$p10/enc/in" "$p10/enc/plf" "$p10/enc/pin"
{ printf '/* caf\351 */\n'; cat "$input"; } >"$p10/enc/lf/m.c"
{ printf '\357\273\277'; sed 's/$/\r/' "$p10/enc/lf/m.c"; } >"$p10/enc/in/m.c"
# encoded FILE: the BOM, then FILE with CRLF line ends
encoded() {
	printf '\357\273\277'
	sed 's/$/\r/' "$1"
}
conv file "$p10/enc/lf/m.c" --out "$p10/enc/lf.out"
conv file "$p10/enc/in/m.c" --out "$p10/enc/in.out"
tap_check "paths: file mode: a BOM, CRLF, Latin-1 file converts like its plain twin, byte for byte (guard)" \
	cmp -s <(encoded "$p10/enc/lf.out/m.c") "$p10/enc/in.out/m.c"
mktree "$p10/enc/tree"
cp -- "$p10/enc/in/m.c" "$p10/enc/tree/security/mod/m.c"
conv tree "$p10/enc/tree" --out "$p10/enc/tree.out"
tap_check "paths: tree mode: the same, byte for byte (guard)" \
	cmp -s <(encoded "$p10/enc/lf.out/m.c") "$p10/enc/tree.out/security/mod/m.c"
cp -- "$p10/enc/lf/m.c" "$p10/enc/plf/m.c"
cp -- "$p10/enc/in/m.c" "$p10/enc/pin/m.c"
port_run "$p10/enc/plf" --out "$p10/enc/plf.out" --report "$p10/enc/plf.md"
port_run "$p10/enc/pin" --out "$p10/enc/pin.out" --report "$p10/enc/pin.md"
tap_check "paths: port: a BOM, CRLF, Latin-1 module is ported like its plain twin, byte for byte (CRLF kept)" \
	cmp -s <(encoded "$p10/enc/plf.out/m.c") "$p10/enc/pin.out/m.c"

# --- one run per --out ------------------------------------------------------------
mkdir -p "$p10/lock"
exec {p10_lock}>"$p10/lock/.out.lsmconv-lock"
flock -n "$p10_lock"
port_run "$p10/pin" --out "$p10/lock/out" --report "$p10/lock/r.md"
exec {p10_lock}>&-
tap_check "paths: port into an --out another port holds: exit 2 at once (got $rc), naming the lock, nothing written" \
	test "$rc" -eq 2 -a ! -e "$p10/lock/out" -a -n "$(grep -F 'in use by another lsmconv run' <<<"$err")"
mkdir -p "$p10/lock/dout"
exec {p10_lock}<"$p10/lock/dout"
flock -n "$p10_lock"
conv file "$input" --out "$p10/lock/dout"
exec {p10_lock}<&-
tap_check "paths: file mode into an --out another run holds: exit 2 (got $rc), nothing written" \
	test "$rc" -eq 2 -a -z "$(ls -A "$p10/lock/dout")" -a -n "$(grep -F 'in use' <<<"$err")"

# --- docs/porting.md's example: the report inside --out, then the rerun -----------
mkdir -p "$p10/guide/mymod"
cp -- "$input" "$p10/guide/mymod/hooks.c"
conv file "$p10/guide/mymod/hooks.c" --out "$p10/guide/build" --report "$p10/guide/build/report.md"
rc1=$rc
conv file "$p10/guide/mymod/hooks.c" --out "$p10/guide/build" --report "$p10/guide/build/report.md"
tap_check "paths: --report inside --out (docs/porting.md): the first run and its rerun both exit 0 ($rc1, $rc)" \
	test "$rc1" -eq 0 -a "$rc" -eq 0 -a -f "$p10/guide/build/.lsmconv-out" -a -s "$p10/guide/build/report.md"

# --- the environment ------------------------------------------------------------------
cp -- "$input" "$p10/home.c"
rc=0
env -u HOME "$convert" file "$p10/home.c" --target "$target" --rules 20 >/dev/null 2>"$p10/stderr" || rc=$?
tap_check "paths: HOME unset: converted (exit $rc), no spatch 'Not_found'" \
	test "$rc" -eq 0 -a -z "$(cmp "$p10/home.c" "$ref" 2>&1)"
long=$(printf 'l%.0s' $(seq 1 240)).c
cp -- "$input" "$p10/$long"
conv file "$p10/$long"
tap_check "paths: a 242-byte file name is converted in place (exit $rc)" \
	test "$rc" -eq 0 -a -z "$(cmp "$p10/$long" "$ref" 2>&1)"
mkdir -p "$p10/plong"
cp -- "$input" "$p10/plong/$long"
rc=0
env -u HOME timeout 60 "$convert" port "$p10/plong" --name p10 --target "$target" \
	--out "$p10/plong.out" --report "$p10/plong.md" >/dev/null 2>"$p10/stderr" || rc=$?
tap_check "paths: port with HOME unset and a 242-byte file name: exit 1 (got $rc), the module written" \
	test "$rc" -eq 1 -a -s "$p10/plong.out/$long" -a -s "$p10/plong.md"

# --- temporary folders: a bad target, SIGINT, SIGTERM (port) -----------------------
# a target with every file, but an lsm_hook_defs.h lsmconv.hooks cannot read
mkdir -p "$p10/tmp"
cp -r -- "$target" "$p10/badt"
echo 'LSM_HOOK(int, 0, unterminated' >"$p10/badt/include/linux/lsm_hook_defs.h"
rc=0
TMPDIR=$p10/tmp "$convert" port "$p10/pin" --name p10 --target "$p10/badt" --out "$p10/badt.out" \
	>/dev/null 2>"$p10/stderr" || rc=$?
tap_check "paths: port with a bad target: exit 2 (got $rc), no temporary folder left, no --out" \
	test "$rc" -eq 2 -a -z "$(ls -A "$p10/tmp")" -a ! -e "$p10/badt.out"
rc=0
TMPDIR=$p10/tmp "$convert" file "$p10/pin/x.c" --target "$p10/badt" --out "$p10/badt.out" \
	>/dev/null 2>"$p10/stderr" || rc=$?
tap_check "paths: file mode with that target: exit 2 (got $rc), no temporary folder left" \
	test "$rc" -eq 2 -a -z "$(ls -A "$p10/tmp")" -a ! -e "$p10/badt.out"
for sig in INT TERM; do
	rm -rf -- "$p10/tmp" "$p10/sig.out" && mkdir -p "$p10/tmp"
	(TMPDIR=$p10/tmp in_session "$convert" port "$p10/pin" --name p10 --target "$target" \
		--out "$p10/sig.out" --report "$p10/sig.md" >/dev/null 2>"$p10/stderr") &
	pid=$!
	signal_mid_run "$sig" "$pid"
	want=$((128 + $(kill -l "$sig")))
	tap_check "paths: port SIG$sig: exit $want (got $rc), no process ($left), no temporary folder, no --out" \
		test "$rc" -eq "$want" -a "$left" -eq 0 -a -z "$(ls -A "$p10/tmp")" \
		-a ! -e "$p10/sig.out" -a ! -e "$p10/sig.md"
done

# --- a read-only input in place ----------------------------------------------------------
if [ "$(id -u)" -eq 0 ]; then
	cp -- "$input" "$p10/ro.c"
	chmod 444 "$p10/ro.c"
	conv file "$p10/ro.c"
	tap_check "paths: root converting a mode-0444 file in place is refused (exit $rc), unchanged" \
		test "$rc" -eq 2 -a -z "$(cmp "$p10/ro.c" "$input" 2>&1)"
	conv file "$p10/ro.c" --out "$p10/ro.out"
	tap_check "paths: ... --out converts it (exit $rc) (guard)" \
		test "$rc" -eq 0 -a -z "$(cmp "$p10/ro.out/ro.c" "$ref" 2>&1)"
else
	tap_skip "paths: root and a 0444 file in place" "not root"
	tap_skip "paths: root and a 0444 file with --out" "not root"
fi

# --- --help ----------------------------------------------------------------------------------
bad=()
for args in "--help" "file --help" "tree --help" "port --help" "file --out --help" \
	"file --jobs 0 --help" "port --report --help" "port DIR --bogus --help"; do
	# shellcheck disable=SC2086 # the words of each command line
	"$convert" $args >/dev/null 2>&1 || bad+=("$args")
done
tap_check "paths: --help exits 0 wherever it stands${bad[*]:+ (not: ${bad[*]})}" test ${#bad[@]} -eq 0
