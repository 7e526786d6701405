# shellcheck shell=bash disable=SC2154 # $t, $root, $convert: tests/robustness/run.sh's
# SPDX-License-Identifier: GPL-2.0
# Issue 29, area "series": convert.sh series (scripts/series.sh) never loses
# a user's file, never exits 0 or 1 on a failure, says "interrupted" on its
# own stderr, leaves no temporary behind; --help exits 0 (series, make v21's
# scripts/v21.sh, verify/*.sh).  Sourced by tests/robustness/run.sh ($t,
# $root, $convert and the TAP helpers).  The runs that get to the steps use
# a mini pre-stacking baseline: the eight files of Linux 4.0 that the series
# reads (build/v21/base, build/v21-test/base, or extracted from
# ../shared/trees/linux-4.0-v21base.tar.xz): the whole series --own in about
# 11 s; without one those cases are skipped.  Every other case stops before
# the steps.
#
# Shown failing on the old code (CONVERT=/tmp/h3-old/convert.sh, a git
# worktree of 51b30aa): all 29 cases not ok.  The old series.sh exited 2 on
# --help and 1 (a bash error) on an option without its value; took an
# option for --jobs' value and failed after writing --work; took an
# unmarked --out or --work whose names all matched its patterns as its own
# and deleted the user's 0001-*.patch, report.md and tree/ in it, and with
# --force replaced the whole directory (notes.txt lost; the baseline itself
# when it was --out); accepted --work inside --out, --out inside --work,
# both inside the baseline or the target; exited 2 for a failed step after
# writing; wrote --work before finding that the target had only
# lsm_hook_defs.h; wrote "interrupted" into a step's log instead of its
# stderr and left the --work it made; lib.sh had no way to keep a signal
# from cutting an install short.  The old v21.sh and verify/*.sh
# exited 2 on --help (stage.sh took --help for its output directory) and
# 1 (a bash error) on an option without its value.

d30=$t/30
mkdir -p "$d30/cwd"
scripts30=$(dirname "$convert")

# series ARGS...: convert.sh series in $d30/cwd; sets rc, out, err.
series() {
	rc=0
	(cd "$d30/cwd" && "$convert" series "$@") >"$d30/stdout" 2>"$d30/stderr" || rc=$?
	out=$(cat "$d30/stdout")
	err=$(cat "$d30/stderr")
}
# refused DESC: the last run exited 2 with an error line (tap_diag on failure)
refused() {
	[ "$rc" -eq 2 ] && [ -n "$err" ] && return 0
	tap_diag "exit $rc" "$err"
	return 1
}

# --- the mini baseline ----------------------------------------------------------
mini_files=(Makefile Kconfig include/linux/security.h security/Kconfig security/Makefile
	security/security.c security/capability.c security/commoncap.c)
mini=$d30/base
mini_from() {	# mini_from TREE: copy the files of TREE, commit them
	(cd "$1" && cp --parents -- "${mini_files[@]}" "$mini/") 2>/dev/null || return 1
	git -C "$mini" init -q &&
		git -C "$mini" add -A &&
		git -C "$mini" -c user.name=t -c user.email=t@t.invalid commit -q -m "4.0 (mini)"
}
mkdir -p "$mini"
have_mini=0
for src30 in "$root/build/v21/base" "$root/build/v21-test/base"; do
	if [ -f "$src30/include/linux/security.h" ] && mini_from "$src30"; then
		have_mini=1
		break
	fi
done
tarball30=$(realpath -m "$root/../shared/trees/linux-4.0-v21base.tar.xz")
if [ "$have_mini" -eq 0 ] && [ -f "$tarball30" ]; then
	mkdir -p "$d30/x"
	pats=()
	for f in "${mini_files[@]}"; do pats+=("$f" "*/$f"); done
	tar -xJf "$tarball30" -C "$d30/x" --wildcards --no-wildcards-match-slash "${pats[@]}" 2>/dev/null
	top=$(find "$d30/x" -path '*/include/linux/security.h' | head -n 1)
	top=${top%/include/linux/security.h}
	if [ -n "$top" ] && mini_from "$top"; then have_mini=1; fi
fi
# a pre-stacking tree whose first step fails (forward.py: no #if around the
# struct): the series fails after it wrote --work
tiny=$d30/tiny
mkdir -p "$tiny/include/linux" "$tiny/security"
printf 'VERSION = 4\nPATCHLEVEL = 0\nSUBLEVEL = 0\n' >"$tiny/Makefile"
echo 'source "security/Kconfig"' >"$tiny/Kconfig"
printf 'struct security_operations {\n\tchar name[10];\n};\n' >"$tiny/include/linux/security.h"
echo 'int x;' >"$tiny/security/security.c"
git -C "$tiny" init -q && git -C "$tiny" add -A &&
	git -C "$tiny" -c user.name=t -c user.email=t@t.invalid commit -q -m tiny
[ "$have_mini" -eq 1 ] && base30=$mini || base30=$tiny

# --- usage ------------------------------------------------------------------------
series --help
tap_check "series --help: exit 0 (got $rc), the usage on stdout" \
	test "$rc" -eq 0 -a -n "$(grep -F 'usage: convert.sh series' <<<"$out")"
series --baseline "$base30" --own --out
tap_check "series --out without its value: exit 2 (got $rc), no bash error" \
	test "$rc" -eq 2 -a -n "$(grep -F -- '--out needs a value' <<<"$err")"
series --baseline "$base30" --own --jobs --force --out "$d30/o-opt" --work "$d30/w-opt"
tap_check "series --jobs --force (an option as the value): exit 2 (got $rc) before anything is written" \
	test "$rc" -eq 2 -a ! -e "$d30/w-opt" -a ! -e "$d30/o-opt" -a ! -e "$d30/cwd/--force"
for s30 in scripts/v21.sh verify/pipeline.sh verify/port.sh verify/compare.sh verify/traces.sh verify/stage.sh; do
	rc=0
	(cd "$d30/cwd" && O=$d30/stage-o "$scripts30/$s30" --help) >"$d30/stdout" 2>"$d30/stderr" || rc=$?
	tap_check "$s30 --help: exit 0 (got $rc), the usage on stdout" \
		test "$rc" -eq 0 -a -n "$(grep -i 'usage: ' "$d30/stdout")"
done

for s30 in "verify/pipeline.sh --work" "verify/port.sh --work" "verify/traces.sh --work" "verify/compare.sh --lsm"; do
	rc=0
	# shellcheck disable=SC2086 # the script and its option, split on purpose
	(cd "$d30/cwd" && "$scripts30"/$s30) >"$d30/stdout" 2>"$d30/stderr" || rc=$?
	tap_check "$s30 (no value): exit 2 (got $rc), the error on stderr" \
		test "$rc" -eq 2 -a -s "$d30/stderr" -a ! -s "$d30/stdout"
done

# --- only a marker makes a directory lsmconv's ---------------------------------
mkdir -p "$d30/users-out"
echo "my patch" >"$d30/users-out/0001-mine.patch"
echo "my notes" >"$d30/users-out/report.md"
series --baseline "$base30" --own --out "$d30/users-out" --work "$d30/w1"
tap_check "an unmarked --out holding only 0001-mine.patch and report.md is refused (exit $rc), both kept" \
	test "$rc" -eq 2 -a "$(cat "$d30/users-out/0001-mine.patch" "$d30/users-out/report.md" 2>&1)" = $'my patch\nmy notes'
mkdir -p "$d30/users-work/tree" "$d30/users-work/logs"
echo "my source" >"$d30/users-work/tree/main.c"
series --baseline "$base30" --own --out "$d30/o2" --work "$d30/users-work"
tap_check "an unmarked --work holding only tree/ and logs/ is refused (exit $rc), tree/main.c kept" \
	test "$rc" -eq 2 -a "$(cat "$d30/users-work/tree/main.c" 2>&1)" = "my source"
series --baseline "$base30" --own --out "$d30/users-out" --work "$d30/w3" --force
tap_check "--force: an --out holding a user's 0001-mine.patch is still refused (exit $rc), kept" \
	test "$rc" -eq 2 -a "$(cat "$d30/users-out/0001-mine.patch" 2>&1)" = "my patch" -a ! -e "$d30/w3"
series --baseline "$base30" --own --out "$d30/o4" --work "$d30/users-work" --force
tap_check "--force: a --work holding a user's tree/ is still refused (exit $rc), tree/main.c kept" \
	test "$rc" -eq 2 -a "$(cat "$d30/users-work/tree/main.c" 2>&1)" = "my source" -a ! -e "$d30/o4"

# --- out, work, baseline, target: apart ------------------------------------------
cp -a -- "$base30" "$d30/base-copy"
head30=$(git -C "$d30/base-copy" rev-parse HEAD)
pristine() {	# the copy of the baseline has no file but its commit's
	[ -z "$(git -C "$d30/base-copy" status --porcelain --ignored 2>&1)" ] &&
		[ "$(git -C "$d30/base-copy" rev-parse HEAD 2>/dev/null)" = "$head30" ]
}
series --baseline "$base30" --own --out "$d30/p1" --work "$d30/p1/work"
tap_check "--work inside --out: exit 2 (got $rc) naming both, nothing made" \
	test "$rc" -eq 2 -a ! -e "$d30/p1" -a -n "$(grep -F -- '--work' <<<"$err" | grep -F -- '--out')"
series --baseline "$base30" --own --out "$d30/p2/out" --work "$d30/p2"
tap_check "--out inside --work: exit 2 (got $rc) naming both, nothing made" \
	test "$rc" -eq 2 -a ! -e "$d30/p2" -a -n "$(grep -F -- '--work' <<<"$err" | grep -F -- '--out')"
# (the old series.sh replaced the baseline by the series, or cloned it into
# a --work inside itself)
p30() { [ "$rc" -eq 2 ] && [ ! -e "$1" ] && pristine; }
series --baseline "$d30/base-copy" --own --out "$d30/base-copy" --work "$d30/p3" --force
tap_check "--out the baseline, with --force: exit 2 (got $rc), the baseline untouched, no --work" \
	p30 "$d30/p3"
series --baseline "$d30/base-copy" --own --out "$d30/p4" --work "$d30/base-copy/work" --force
tap_check "--work inside the baseline, with --force: exit 2 (got $rc), the baseline untouched, no --out" \
	p30 "$d30/p4"
# a target (the files of the distro tree the series checks for), a copy:
# the old code wrote its lock file into the target
tgt30=$d30/target
for f in Makefile Kconfig include/linux/lsm_hook_defs.h include/linux/lsm_hooks.h \
	include/linux/security.h security/security.c security/commoncap.c security/Kconfig; do
	mkdir -p "$tgt30/$(dirname "$f")"
	cp -- "$LSMCONV_DISTRO_TREE/$f" "$tgt30/$f"
done
series --baseline "$base30" --target "$tgt30" --out "$tgt30/p5" --work "$d30/p5"
tap_check "--out inside --target: exit 2 (got $rc), nothing made there or in --work" \
	test "$rc" -eq 2 -a ! -e "$tgt30/p5" -a ! -e "$tgt30/.p5.lsmconv-lock" -a ! -e "$d30/p5"

# --- failures: exit 2 before writing, 3 after; nothing temporary left -------------
mkdir -p "$d30/partial/include/linux"
cp -- "$LSMCONV_DISTRO_TREE/include/linux/lsm_hook_defs.h" "$d30/partial/include/linux/"
series --baseline "$base30" --target "$d30/partial" --out "$d30/f1" --work "$d30/f1-work"
tap_check "a --target with only lsm_hook_defs.h: exit 2 (got $rc) before anything is written (no --work, no --out)" \
	test "$rc" -eq 2 -a ! -e "$d30/f1-work" -a ! -e "$d30/f1"
series --baseline "$tiny" --own --out "$d30/f2" --work "$d30/f2-work"
tap_check "a step that fails after --work was written: exit 3 (got $rc) naming its log, no --out" \
	test "$rc" -eq 3 -a ! -e "$d30/f2" -a -n "$(grep -F "$d30/f2-work/logs/" <<<"$err")"

# A signal while --out is being installed (a few renames) waits until they
# are done: lib.sh's defer_interrupts ... allow_interrupts, then exit 143.
defer30() {
	local o
	o=$(bash -c '. "$1/scripts/lib.sh"; on_interrupt ""; defer_interrupts; kill -TERM $$
		echo installed; allow_interrupts; echo after' _ "$scripts30" 2>"$d30/defer.err")
	rc=$?
	[ "$rc" -eq 143 ] && [ "$o" = installed ] && grep -q interrupted "$d30/defer.err"
}
tap_check "a SIGTERM during an install: the renames finish, then exit 143 'interrupted'" defer30

# --- --force writes beside a user's files; a second run changes nothing ------------
if [ "$have_mini" -eq 1 ]; then
	mkdir -p "$d30/shared-out"
	echo "my notes" >"$d30/shared-out/notes.txt"
	series --baseline "$mini" --own --out "$d30/shared-out" --work "$d30/s-work" --force --jobs 1
	n30=$(find "$d30/shared-out" -name '000[1-9]-*.patch' | wc -l)
	tap_check "--force into a user's --out: exit $rc, $n30 patches written beside notes.txt, which is kept" \
		test "$rc" -eq 0 -a "$n30" -gt 0 -a "$(cat "$d30/shared-out/notes.txt" 2>&1)" = "my notes"
	[ "$rc" -eq 0 ] || tap_diag "$err"
	cp -a -- "$d30/shared-out" "$d30/shared-first"
	series --baseline "$mini" --own --out "$d30/shared-out" --work "$d30/s-work" --jobs 1
	same30() { [ -f "$d30/shared-out/notes.txt" ] && diff -r "$d30/shared-first" "$d30/shared-out"; }
	tap_check "a second run (the --out now lsmconv's): exit $rc, notes.txt kept, every file the same bytes" \
		same30

	# --- signals: "interrupted" on stderr, no child, no --work it made, no --out ---------
	# sig30 SIG: the series on the mini baseline in its own session (the signal
	# not ignored: a background job of a script ignores SIGINT), SIG to
	# convert.sh once spatch runs; sets rc, left (processes of the session).
	sig30() {
		local sig=$1 pid
		rm -rf "$d30/sig" && mkdir -p "$d30/sig"
		in_session "$convert" series --baseline "$mini" --own \
			--out "$d30/sig/out" --work "$d30/sig/work" --jobs 1 >/dev/null 2>"$d30/sig/err" &
		pid=$!
		signal_mid_run "$sig" "$pid"
	}
	for sig in INT TERM; do
		sig30 "$sig"
		want=$((128 + $(kill -l "$sig")))
		tap_check "SIG$sig mid-run: exit $want (got $rc), 'interrupted' on stderr, no process left ($left), no --work, no --out" \
			test "$rc" -eq "$want" -a "$left" -eq 0 -a -n "$(grep -F interrupted "$d30/sig/err")" \
			-a ! -e "$d30/sig/work" -a ! -e "$d30/sig/out"
	done
else
	for c30 in "--force into a user's --out: written beside notes.txt" "a second run keeps notes.txt, same bytes" \
		"SIGINT mid-run" "SIGTERM mid-run"; do
		tap_skip "$c30" "no 4.0 tree for the mini baseline (make v21, or ../shared/trees)"
	done
fi
