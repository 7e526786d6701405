#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Static suite of the port mode (convert.sh port), TAP 13.  No kernel build.
#
# usage: tests/port/run.sh [PATTERN]
#
# Every tests/port/modules/NAME/ (or those whose name contains PATTERN)
# holds a legacy module written by us:
#   input/        the module's .c/.h files
#   expected/     the port's output (byte-compared, every file)
#   report.expect lines that must appear in the report (grep -F), one test each
#   exit.expect   convert.sh port's exit status (default 1)
#   target        "lsmid": port to a copy of the target whose registration
#                 API is 6.8's (security_add_hooks() takes a struct lsm_id,
#                 no __lsm_ro_after_init, uapi LSM_ID_UNDEF; see
#                 lsmid_target): the port must read those facts from the tree
#   mutations     checks (sweep, sig, cap, blob, lsmid, name) whose mutation must make this case
#                 fail: run with LSMCONV_PORT_MUTATE=CHECK, the output, the
#                 exit status or a report.expect line must differ
# Per case: output and exit status; one test per report line; idempotence
# (porting expected/ again changes nothing and reports a todo on exactly the
# same file:lines); one test per mutation.  Then the sweep's report mode
# (spatch -D report) on one case, and the usage errors (exit 2, nothing
# written).  TREE=DIR picks the target; JOBS=N cases at a time (default 2).
# REGEN=1 rewrites expected/ from the current output (review the diff!).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
TARGET=${TREE:-$LSMCONV_DISTRO_TREE}
PATTERN=${1:-}
JOBS=${JOBS:-2}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/lsmconv-port-test.XXXXXX")
trap 'rm -rf -- "$TMP"' EXIT
export LSMCONV_PORT_CACHE="$TMP/cache"
mkdir -p "$LSMCONV_PORT_CACHE"

if [[ ! -f "$TARGET/include/linux/lsm_hook_defs.h" ]]; then
	tap_skip "port suite" "no target tree at $TARGET (make tree)"
	tap_done
	exit 0
fi

# port IN OUT REPORT [MUTATION]: prints the exit status; the items in
# REPORT.jsonl.
port() {
	local rc=0
	rm -rf -- "$2"
	rm -f -- "$3.jsonl"
	LSMCONV_PORT_MUTATE=${4:-} "$ROOT/convert.sh" port "$1" --name "$NAME" \
		--target "$TARGET" --out "$2" --report "$3" --items "$3.jsonl" >/dev/null 2>"$3.err" || rc=$?
	echo "$rc"
}

# todo_lines REPORT: "file:line" of every todo (from the items, REPORT.jsonl;
# a missing or unreadable file gives a line that matches no other).
todo_lines() {
	PYTHONPATH="$ROOT/cocci" python3 -m lsmconv.items todos "$1.jsonl" 2>&1 |
		sed 's/^\([^ ]*:[0-9]*\): .*/\1/' | sort -u || echo "no items: $1.jsonl"
}

same_tree() {
	diff -r -x .lsmconv-port -- "$1" "$2" >/dev/null 2>&1
}

# lsmid_target DIR: a hard-linked copy of $TARGET with the registration API
# of 6.8 and later in the files the port reads: security_add_hooks(hooks,
# count, const struct lsm_id *), no __lsm_ro_after_init, and
# include/uapi/linux/lsm.h with LSM_ID_UNDEF.  Facts only, as a tree of
# that epoch states them; nothing in lsmconv knows the version.
lsmid_target() {
	local t=$1 e h=include/linux/lsm_hooks.h
	mkdir -p "$t"
	for e in "$TARGET"/* "$TARGET"/.[!.]*; do
		[[ -e $e && ${e##*/} != .git && ${e##*/} != "$LSMCONV_OBJ_PREFIX"* ]] || continue
		cp -al -- "$e" "$t/"
	done
	rm -f -- "$t/$h"
	sed -e '/security_add_hooks(/,/;/s/const char \*lsm);/const struct lsm_id *lsmid);/' \
		-e '/^#define __lsm_ro_after_init/d' "$TARGET/$h" >"$t/$h"
	grep -q 'const struct lsm_id \*lsmid);' "$t/$h" || return 1
	rm -f -- "$t/include/uapi/linux/lsm.h"
	printf '#define LSM_ID_UNDEF\t\t0\n' >"$t/include/uapi/linux/lsm.h"
}

# check_port C LABEL TARGET EXPECTED WANT REPORT_EXPECT W: port C's input to
# TARGET in work dir W; the output equals EXPECTED (REGEN=1 rewrites it), the
# exit status is WANT, the report has every line of REPORT_EXPECT, and a
# second run changes nothing.  Results as unnumbered "ok"/"not ok" lines.
check_port() {
	local c=$1 label=$2 target=$3 exp=$4 want=$5 rexp=$6 w=$7 rc rc2 line base
	mkdir -p "$w"
	rc=$(TARGET=$target port "$c/input" "$w/out" "$w/report.md")
	if [[ ${REGEN:-0} == 1 ]]; then
		rm -rf -- "$exp"
		cp -a "$w/out" "$exp"
		rm -f -- "$exp/.lsmconv-port"
		want=$rc
		base=${exp##*/}
		echo "$rc" >"${exp%/*}/${base/expected/exit}.expect"
		[[ -z ${KEEP:-} ]] || cp -- "$w/report.md" "$KEEP/$(basename -- "$c")$label.md"
	fi
	if [[ -d "$exp" ]] && same_tree "$exp" "$w/out" && [[ $rc == "$want" ]]; then
		echo "ok - $NAME$label: output equals ${exp##*/}/, exit $rc"
	else
		echo "not ok - $NAME$label: output equals ${exp##*/}/, exit $rc (want $want)"
		diff -r -x .lsmconv-port -- "$exp" "$w/out" 2>&1 | head -n 20 | sed 's/^/# /' || true
		sed 's/^/# /' "$w/report.md.err"
	fi
	if [[ -f "$rexp" ]]; then
		while IFS= read -r line; do
			[[ -z $line || $line == \#* ]] && continue
			if grep -qF -- "$line" "$w/report.md"; then
				echo "ok - $NAME$label: report has: $line"
			else
				echo "not ok - $NAME$label: report has: $line"
			fi
		done <"$rexp"
	fi
	rc2=$(TARGET=$target port "$w/out" "$w/out2" "$w/report2.md")
	if same_tree "$w/out" "$w/out2" && [[ $rc2 == "$rc" ]] &&
		[[ "$(todo_lines "$w/report.md")" == "$(todo_lines "$w/report2.md")" ]]; then
		echo "ok - $NAME$label: idempotent (second run: same output, exit $rc2, todos at the same lines)"
	else
		echo "not ok - $NAME$label: idempotent (second run exit $rc2, first $rc)"
		diff <(todo_lines "$w/report.md") <(todo_lines "$w/report2.md") | sed 's/^/# /' || true
	fi
}

# One case; writes its results (unnumbered "ok"/"not ok"/"skip" lines) to
# stdout: on its target (expected/), then on every distro target T it has an
# expected-T/ for (exit-T.expect, report-T.expect), from that real tree.
run_case() {
	local c=$1 w want line m mrc failed tv tt TARGET=$TARGET
	[[ ! -f $c/target ]] || TARGET=$TMP/target-$(tr -d '[:space:]' <"$c/target")
	# the LSM name: the first .c file's name
	NAME=$(cd "$c/input" && find . -name '*.c' | LC_ALL=C sort | head -n 1)
	NAME=$(basename -- "${NAME%.c}")
	w="$TMP/$(basename -- "$c")"
	want=1
	[[ -f "$c/exit.expect" ]] && want=$(tr -d '[:space:]' <"$c/exit.expect")
	check_port "$c" "" "$TARGET" "$c/expected" "$want" "$c/report.expect" "$w"
	for tv in $LSMCONV_TARGETS; do
		[[ -d $c/expected-$tv || " ${REGEN_TARGETS:-} " == *" $tv "* ]] || continue
		tt=$(distro_tree "$tv")
		if [[ ! -f $tt/include/linux/lsm_hook_defs.h ]]; then
			echo "skip - $NAME on $tv: no $tv tree ($tt: make tree TARGET=$tv)"
			continue
		fi
		want=1
		[[ -f "$c/exit-$tv.expect" ]] && want=$(tr -d '[:space:]' <"$c/exit-$tv.expect")
		check_port "$c" " on $tv" "$tt" "$c/expected-$tv" "$want" "$c/report-$tv.expect" "$w-$tv"
	done
	want=1
	[[ -f "$c/exit.expect" ]] && want=$(tr -d '[:space:]' <"$c/exit.expect")
	if [[ -f "$c/mutations" ]]; then
		while IFS= read -r m; do
			[[ -z $m ]] && continue
			mrc=$(port "$c/input" "$w/mut-$m" "$w/mut-$m.md" "$m")
			failed=0
			same_tree "$c/expected" "$w/mut-$m" || failed=1
			[[ $mrc == "$want" ]] || failed=1
			if [[ -f "$c/report.expect" ]]; then
				while IFS= read -r line; do
					[[ -z $line || $line == \#* ]] && continue
					grep -qF -- "$line" "$w/mut-$m.md" || failed=1
				done <"$c/report.expect"
			fi
			if [[ $failed == 1 ]]; then
				echo "ok - $NAME: mutation '$m' (check switched off) is caught"
			else
				echo "not ok - $NAME: mutation '$m' (check switched off) is caught"
			fi
		done <"$c/mutations"
	fi
}

cases=()
for c in "$HERE"/modules/*/; do
	c=${c%/}
	[[ -n $PATTERN && $(basename -- "$c") != *"$PATTERN"* ]] && continue
	cases+=("$c")
done

for c in "${cases[@]}"; do
	if [[ -f $c/target && ! -d $TMP/target-lsmid ]]; then
		if lsmid_target "$TMP/target-lsmid"; then
			tap_ok "fixture: a copy of the target with the struct lsm_id registration API"
		else
			tap_not_ok "fixture: a copy of the target with the struct lsm_id registration API"
		fi
	fi
done

i=0
for c in "${cases[@]}"; do
	run_case "$c" >"$TMP/result.$i" &
	i=$((i + 1))
	if ((i % JOBS == 0)); then
		wait
	fi
done
wait
for ((k = 0; k < i; k++)); do
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) tap_ok "${line#ok - }" ;;
		"not ok - "*) tap_not_ok "${line#not ok - }" ;;
		"skip - "*) line=${line#skip - } && tap_skip "${line%%: *}" "${line#*: }" ;;
		*) echo "$line" ;;
		esac
	done <"$TMP/result.$k"
done

if [[ -z $PATTERN || $PATTERN == driver ]]; then
	# The sweep is a standalone checker: report mode names file:line.
	out=$(
		cd "$HERE/modules/ops_only/input" || exit 0
		spatch -D report -D target="$TARGET" \
			--sp-file "$ROOT/cocci/port/legacy-sweep.cocci" opsonly.c 2>/dev/null || true
	)
	if grep -q '^opsonly.c:5:[0-9-]*: legacy LSM API: ' <<<"$out" &&
		grep -q '^opsonly.c:17:[0-9-]*: legacy LSM API: reset_security_ops' <<<"$out"; then
		tap_ok "driver: legacy-sweep.cocci in report mode names file:line"
	else
		tap_not_ok "driver: legacy-sweep.cocci in report mode names file:line"
		tap_diag "$out"
	fi
	# capability.py reads the hook list from the tree, not from a typed list:
	# a fake commoncap.c with one entry gives exactly that entry.
	mkdir -p "$TMP/fake/security"
	printf 'static struct security_hook_list capability_hooks[] __lsm_ro_after_init = {\n\tLSM_HOOK_INIT(file_open, cap_fake_open),\n};\n' \
		>"$TMP/fake/security/commoncap.c"
	got=$(PYTHONPATH="$ROOT/cocci" python3 -m lsmconv.capability "$TMP/fake" 2>&1 || true)
	tap_check "driver: capability.py reads capability_hooks[] of the tree given" \
		test "$got" = "$(printf 'file_open\tcap_fake_open')"
	got=$(PYTHONPATH="$ROOT/cocci" python3 -m lsmconv.capability "$TARGET" | grep -c . || true)
	want=$(sed -n '/capability_hooks\[\]/,/^};/p' "$TARGET/security/commoncap.c" | grep -c LSM_HOOK_INIT || true)
	tap_check "driver: capability.py finds all $want hooks of the target's commoncap.c" \
		test "$got" = "$want" -a "$want" -gt 0
	# blobs.py reads the blob kinds from the target's security.c in both
	# shapes: 6.1 (`p->m = kzalloc()`, call_int_hook(FUNC, IRC, ...)) and
	# 6.12 (`lsm_blob_alloc(&p->m, ...)`, call_int_hook(HOOK, ...)).
	mkdir -p "$TMP/fake12/include/linux" "$TMP/fake12/security"
	printf 'struct lsm_blob_sizes {\n\tint lbs_cred;\n};\n' >"$TMP/fake12/include/linux/lsm_hooks.h"
	cat >"$TMP/fake12/security/security.c" <<'EOF12'
#define call_int_hook(HOOK, ...) 0
static int lsm_cred_alloc(struct cred *cred, gfp_t gfp)
{
	return lsm_blob_alloc(&cred->security, blob_sizes.lbs_cred, gfp);
}

int security_prepare_creds(struct cred *new, const struct cred *old, gfp_t gfp)
{
	int rc = lsm_cred_alloc(new, gfp);

	if (rc)
		return rc;
	rc = call_int_hook(cred_prepare, new, old, gfp);
	return rc;
}
EOF12
	got=$(PYTHONPATH="$ROOT/cocci" python3 -c 'import sys; from lsmconv import blobs; k = blobs.kinds(sys.argv[1])["cred"]; print(k.member, k.alloc)' "$TMP/fake12" 2>&1 || true)
	tap_check "driver: blobs.py reads a 6.12-shaped security.c (lsm_blob_alloc(&cred->security), call_int_hook without IRC)" \
		test "$got" = "security {'cred_prepare': 0}"
	# cscan (the one C scanner): a definition after a multi-line
	# `#define ... while (0)` is found, by the function list (make port's
	# attribution, the blob check) and by the lookup the sig check uses (a
	# miss was a false "no definition or prototype" todo).
	cat >"$TMP/macro.c" <<'EOFM'
#define SWAP(ops, h) \
	do { \
		old_##h = (ops)->h; \
	} while (0)

static int after_macro(struct file *file)
{
	return 0;
}
EOFM
	got=$(PYTHONPATH="$ROOT/cocci" python3 -c 'import sys
from lsmconv import cscan
t = open(sys.argv[1]).read()
print([(f.name, f.line, f.last) for f in cscan.functions(t)], cscan.find_function(cscan.code_text(t), "after_macro"))' "$TMP/macro.c" 2>&1 || true)
	tap_check "driver: cscan finds a definition after a multi-line #define ... while (0)" \
		test "$got" = "[('after_macro', 6, 9)] ('int', ['struct file *file'], True, 6)"
	[ "$got" = "[('after_macro', 6, 9)] ('int', ['struct file *file'], True, 6)" ] || tap_diag "$got"
	# The conversion cache is keyed by what the conversion read: ptraceblock's
	# cap chain makes rule 40 read security/security.c; an edit of it in a
	# copy of the target makes convert.sh port convert again, an unchanged
	# target reuses the result.
	cache_run() {
		"$ROOT/convert.sh" port "$ROOT/tests/port-boot/modules/ptraceblock/legacy" \
			--name ptraceblock --target "$TMP/edited" --out "$TMP/cache-out" \
			--report "$TMP/cache.md" 2>&1 >/dev/null | grep -E '^port: (converting|convert.sh file.s result reused)' || true
	}
	mkdir -p "$TMP/edited" "$TMP/cache2"
	for e in "$TARGET"/* "$TARGET"/.[!.]*; do
		[[ -e $e && ${e##*/} != .git && ${e##*/} != "$LSMCONV_OBJ_PREFIX"* ]] || continue
		cp -al -- "$e" "$TMP/edited/"
	done
	first=$(LSMCONV_PORT_CACHE=$TMP/cache2 cache_run)
	again=$(LSMCONV_PORT_CACHE=$TMP/cache2 cache_run)
	# replaced, not edited through the hard link: $TARGET stays as it is
	{ cat "$TARGET/security/security.c"; echo "/* edited by tests/port */"; } >"$TMP/security.c"
	mv -f -- "$TMP/security.c" "$TMP/edited/security/security.c"
	edited=$(LSMCONV_PORT_CACHE=$TMP/cache2 cache_run)
	tap_check "driver: the conversion cache records security/security.c among the target files read" \
		grep -qx 'security/security.c' "$TMP"/cache2/*.reads
	tap_check "driver: an unchanged target reuses the cached conversion" \
		test "$first" = "port: converting 1 file(s) with convert.sh file" -a "${again%% (*}" = "port: convert.sh file's result reused"
	tap_check "driver: security/security.c edited in a copy of the target: the conversion is redone" \
		test "$edited" = "port: converting 1 file(s) with convert.sh file"
	tap_diag "cache runs: first '$first', again '$again', after the edit '$edited'"
	# make port's attribution with many errors (issue 27: make port died with
	# exit 141, `sed | head -20` under pipefail): 300 compile errors, each
	# named by a todo; buildattr writes the TSV and the summary make port
	# shows, under pipefail, with the whole TSV and the count of those not
	# shown.  The control: the old `sed | head -20` on this TSV dies with 141.
	mkdir -p "$TMP/many"
	python3 - "$TMP/many" <<'EOFP'
import json, sys
d = sys.argv[1]
with open(d + "/many.c", "w") as c, open(d + "/items.jsonl", "w") as it, \
        open(d + "/compile.log", "w") as log:
    for i in range(300):
        c.write("static int many_fn%d(struct file *file)\n{\n\treturn file->f_op_%d;\n}\n\n" % (i, i))
        it.write(json.dumps({"file": "many.c", "line": 5 * i + 1, "kind": "todo", "hook": None,
                             "message": "many_fn%d: the hook's signature changed: " % i + "x" * 150,
                             "rule": "port", "check": "sig", "action": None, "state": "todo"}) + "\n")
        log.write("../security/many/many.c: In function 'many_fn%d':\n" % i)
        log.write("../security/many/many.c:%d:20: error: 'struct file' has no member named "
                  "'f_op_%d' %s\n" % (5 * i + 3, i, "e" * 150))
EOFP
	rc=0
	(set -euo pipefail
		PYTHONPATH="$ROOT/cocci" python3 -m lsmconv.buildattr --log "$TMP/many/compile.log" \
			--items "$TMP/many/items.jsonl" --module-dir security/many --src "$TMP/many" \
			--tsv "$TMP/many/attribution.tsv" --show 10 many >"$TMP/many/shown") || rc=$?
	tap_check "driver: make port's attribution of 300 errors named by todos: exit 0 under pipefail (exit $rc)" \
		test "$rc" = 0
	tap_check "driver: ... the TSV has all 300, named by their todos" \
		test "$(grep -c '^reported	many.c:[0-9]*	.*	many.c:[0-9]*: \[sig\] many_fn' "$TMP/many/attribution.tsv")" = 300
	shown_ok() {
		[ "$(sed -n 1p "$TMP/many/shown")" = "  many: 300 error(s) named by a todo, 0 not reported" ] &&
			[ "$(grep -c '<- todo many.c:' "$TMP/many/shown")" = 10 ] &&
			grep -qxF "    ... 290 more error(s) named by a todo: $TMP/many/attribution.tsv" "$TMP/many/shown"
	}
	tap_check "driver: ... the summary counts 300, shows 10 and says 290 more are in the TSV" shown_ok
	rc=0
	(set -euo pipefail
		sed -n 's/^reported\t\([^\t]*\)\t\([^\t]*\)\t\(.*\)/    \1: \2\n      <- todo \3/p' \
			"$TMP/many/attribution.tsv" | head -20 >/dev/null) || rc=$?
	tap_check "driver: ... control: the old sed | head -20 dies on this TSV with SIGPIPE (exit $rc)" test "$rc" = 141
	# (tests/lint checks that make port's script pipes nothing into head)
	# make port's attribution understands C (issue 27; tests/port/attr/README):
	# on the compile logs of two real make port runs, the entries gcc
	# misplaces after an unconverted one go to that entry's todo (cascade),
	# an error at a definition to the todo at its use in another file
	# (function, use), an undeclared name from a stubbed header to the
	# include todo (header), a file gcc stopped on is not-compiled; and a
	# real error after the unconverted entry stays not reported.
	attr_run() { # NAME [LOG]: buildattr's TSV on stdout; its exit in $TMP/attr-$1.rc
		local d=$HERE/attr/$1 rc=0
		PYTHONPATH="$ROOT/cocci" python3 -m lsmconv.buildattr --log "${2:-$d/compile.log}" \
			--items "$d/items.jsonl" --module-dir "security/$1" --src "$d/src" \
			--target "$TARGET" 2>&1 || rc=$?
		echo "$rc" >"$TMP/attr-$1.rc"
	}
	attr_run gonehdr >"$TMP/attr-gonehdr.tsv"
	attr_run attrs >"$TMP/attr-attrs.tsv"
	# rows: "what file:line how" (how: the todo's file:line for reported rows)
	rows() { awk -F'\t' '{ split($4, t, ": "); print $1, $2, ($1 == "reported" ? t[1] " " $5 : $4) }' "$TMP/attr-$1.tsv" | sort | uniq -c | sed 's/^ *//'; }
	tap_check "attribution: gonehdr's log is attributed as reviewed (tests/port/attr/gonehdr/expected.tsv)" \
		diff "$HERE/attr/gonehdr/expected.tsv" "$TMP/attr-gonehdr.tsv"
	tap_check "attribution: attrs' log is attributed as reviewed (tests/port/attr/attrs/expected.tsv)" \
		diff "$HERE/attr/attrs/expected.tsv" "$TMP/attr-attrs.tsv"
	tap_check "attribution: cascade: the 15 errors of the 3 entries after gonehdr.c:50's unconverted one (in LSM_HOOK_INIT's expansion) go to its todo" \
		test "$(rows gonehdr | grep -c '^5 reported gonehdr.c:5[123] gonehdr.c:50 cascade$')" = 3
	tap_check "attribution: cascade: attrs' 10 errors after hooks.c:25 go to its todo" \
		test "$(rows attrs | grep -c '^5 reported hooks.c:2[67] hooks.c:25 cascade$')" = 2
	has_rows() { # NAME ROW...: every ROW is a line of rows NAME
		local r n=$1
		shift
		for r in "$@"; do rows "$n" | grep -qxF -- "$r" || return 1; done
	}
	tap_check "attribution: an error at a definition in creds.c goes to the todo at its use in hooks.c (function), one in attrs.h too (use)" \
		has_rows attrs "1 reported creds.c:10 hooks.c:28 function" "1 reported creds.c:15 hooks.c:29 function" "2 reported attrs.h:13 hooks.c:29 use"
	tap_check "attribution: an undeclared name in a file including a stubbed header goes to its include todo (header)" \
		has_rows attrs "1 reported creds.c:22 creds.c:5 header"
	tap_check "attribution: the file gcc stopped on is not-compiled" \
		has_rows attrs "1 not-compiled notcomp.c:2 fatal"
	tap_check "attribution: exit 0 for both (every LSM-API error explained)" \
		test "$(cat "$TMP/attr-gonehdr.rc") $(cat "$TMP/attr-attrs.rc")" = "0 0"
	# make port's build step (lsmconv.buildprep) in a module directory as
	# port.sh installs it: an empty stub for each header the target does
	# not have, searched last; the module's own conditions on in its
	# Kconfig (not the value it uses); the included non-C files copied; a
	# rerun without the need takes it all back.
	bp=$TMP/bp
	mkdir -p "$bp/from" "$bp/gonehdr" "$bp/owncfg"
	cp "$HERE/modules/headers_gone/expected/gonehdr.c" "$bp/gonehdr/"
	cp "$HERE/modules/own_config/expected/owncfg.c" "$bp/owncfg/"
	cp "$HERE/modules/included_files/expected/"* "$bp/from/"
	cp "$HERE/modules/included_files/expected/incl.c" "$bp/gonehdr/"
	for m in gonehdr owncfg; do
		printf 'obj-%s(CONFIG_SECURITY_%s) := %s.o\n' '$' "${m^^}" "$m" >"$bp/$m/Makefile"
		printf 'config SECURITY_%s\n\tbool "%s"\n' "${m^^}" "$m" >"$bp/$m/Kconfig"
	done
	buildprep() { PYTHONPATH="$ROOT/cocci" python3 -m lsmconv.buildprep --target "$TARGET" --module "$bp/$1" --name "$1" "${@:2}"; }
	buildprep gonehdr --from "$bp/from" >"$bp/gonehdr.out" 2>&1 || true
	buildprep owncfg >"$bp/owncfg.out" 2>&1 || true
	stubs_ok() {
		test "$(grep -c '^stub	' "$bp/gonehdr.out")" = 5 &&
			test -f "$bp/gonehdr/lsmconv-stubs/linux/tracehook.h" &&
			test -f "$bp/gonehdr/lsmconv-stubs/stdarg.h" &&
			grep -qxF "ccflags-y += -idirafter \$(srctree)/security/gonehdr/lsmconv-stubs" "$bp/gonehdr/Makefile"
	}
	copied_ok() { cmp -s "$bp/from/names.lst" "$bp/gonehdr/names.lst" && cmp -s "$bp/from/hooks.lst" "$bp/gonehdr/hooks.lst"; }
	kconfig_ok() {
		grep -qx 'config SECURITY_OWNCONF' "$bp/owncfg/Kconfig" && grep -qx 'config OWNCFG_DEBUG' "$bp/owncfg/Kconfig" &&
			test "$(grep -c 'default SECURITY_OWNCFG$' "$bp/owncfg/Kconfig")" = 2 && ! grep -q OWNCFG_LIMIT "$bp/owncfg/Kconfig"
	}
	tap_check "buildprep: an empty stub for each of gonehdr's 5 missing headers, searched last (-idirafter in its Makefile)" stubs_ok
	tap_check "buildprep: the files the module includes that are not .c/.h are copied (names.lst, hooks.lst)" copied_ok
	tap_check "buildprep: owncfg's own conditions are on with it in its Kconfig, its value CONFIG_OWNCFG_LIMIT is not guessed" kconfig_ok
	sed -i '/#include <\(linux\/tracehook\|linux\/genhd\|crypto\/sha\|asm\/memory\|stdarg\)\.h>/d' "$bp/gonehdr/gonehdr.c"
	buildprep gonehdr >"$bp/gonehdr2.out" 2>&1 || true
	undone_ok() { test ! -e "$bp/gonehdr/lsmconv-stubs" && ! grep -q idirafter "$bp/gonehdr/Makefile" && test ! -s "$bp/gonehdr2.out"; }
	tap_check "buildprep: rerun without missing headers: no stubs, no -idirafter" undone_ok
	# the control: a real error on an entry after the unconverted one (not
	# one of gcc's cascade messages) is no cascade: not reported, exit 1
	{ cat "$HERE/attr/gonehdr/compile.log"
	  echo "../security/gonehdr/gonehdr.c:52:37: error: 'cap_inode_rmdir' undeclared here (not in a function)"; } >"$TMP/attr-control.log"
	attr_run gonehdr "$TMP/attr-control.log" >"$TMP/attr-control.tsv"
	control_ok() {
		grep -qxF "not-reported	gonehdr.c:52	'cap_inode_rmdir' undeclared here (not in a function)	lsm-api" \
			"$TMP/attr-control.tsv" && test "$(cat "$TMP/attr-gonehdr.rc")" = 1
	}
	tap_check "attribution: control: an error after the unconverted entry that is no cascade stays not reported (lsm-api), exit 1" \
		control_ok
	NAME=x
	rc=$(port "$TMP/none" "$TMP/e1" "$TMP/e1.md")
	tap_check "driver: missing input dir -> exit 2, nothing written" \
		test "$rc" = 2 -a ! -e "$TMP/e1" -a ! -e "$TMP/e1.md"
	rc=0
	"$ROOT/convert.sh" port "$HERE/modules/clean61/input" --name x --target "$TMP" \
		--out "$TMP/e2" >/dev/null 2>&1 || rc=$?
	tap_check "driver: target without lsm_hook_defs.h -> exit 2, nothing written" \
		test "$rc" = 2 -a ! -e "$TMP/e2"
	mkdir -p "$TMP/user"
	echo keep >"$TMP/user/mine.txt"
	rc=0
	"$ROOT/convert.sh" port "$HERE/modules/clean61/input" --name x --target "$TARGET" \
		--out "$TMP/user" >/dev/null 2>&1 || rc=$?
	tap_check "driver: --out not written by lsmconv is refused (exit 2, untouched)" \
		test "$rc" = 2 -a "$(ls "$TMP/user")" = mine.txt
	mkdir -p "$TMP/inp"
	cp -- "$HERE/modules/clean61/input/clean.c" "$TMP/inp/"
	rc=0
	"$ROOT/convert.sh" port "$TMP/inp" --name x --target "$TARGET" \
		--out "$TMP/inp/out" >/dev/null 2>&1 || rc=$?
	tap_check "driver: --out inside the input directory is refused (exit 2, nothing written)" \
		test "$rc" = 2 -a "$(ls "$TMP/inp")" = clean.c
	rc=0
	"$ROOT/convert.sh" port "$HERE/modules/clean61/input" --target "$TARGET" \
		--out "$TMP/e3" >/dev/null 2>&1 || rc=$?
	tap_check "driver: --name missing -> exit 2" test "$rc" = 2 -a ! -e "$TMP/e3"
fi
tap_done
