# shellcheck shell=bash disable=SC2154
# (t, src, root, convert: tests/robustness/run.sh's)
# SPDX-License-Identifier: GPL-2.0
# Issue 29, area "honest": convert.sh file never exits 0 on a wrong output.
# A spatch that gives up (EXN: Stack overflow, a fatal error, a kill) fails
# the run naming the file, the rule and spatch's words; every change an item
# claims is checked against the output (a claim without its change: exit 3);
# two LSMs registered by one init function, and legacy API in a macro body,
# are todos with file:line; a UTF-8 BOM converts like its absence and stays;
# the hook list carries no second section attribute.  Sourced by
# tests/robustness/run.sh (conv, $t, $target, $src, $root and the TAP
# helpers).  spatch's failures come from a fake spatch first in PATH (the
# real one, except on a file holding a marker), and one real stack overflow
# (a 2 MB function under an 8 MiB hard stack limit, about 5 s).
#
# Shown failing on the old code (convert.sh and cocci/ of 1843a39, a git
# worktree, CONVERT=/tmp/old-h2/convert.sh with this file): all 13
# convert.sh file cases not ok; the port's sweep case (run from this
# checkout, with cocci/lsmconv/port.py of 1843a39 put back) exited 0.  It exited 0 with "0 changed" when spatch printed
# "EXN: Stack overflow" (fake and real), ignored spatch --parse-c's fatal
# error, said "exit -9" for a SIGKILL naming neither the signal nor the
# file, counted a DEFINE_LSM() claim a rule printed without making it,
# exited 0 claiming two DEFINE_LSM() for two conditional registrations with
# neither in the output (spatch's "already tagged token" EXN ignored),
# exited 0 with the legacy ops struct of a #define left, named an ops
# struct initialized by a macro only as a "copy at run time" (its entries
# and the undefined foo_hooks[] unnamed), exited 0 with a
# register_security() under #if 0 or a declared *secondary_ops left
# unnamed, converted a file
# with a BOM without #include <linux/lsm_hooks.h>, and kept __read_mostly
# beside __lsm_ro_after_init.  The two unit cases test this checkout's
# cocci/: with the old one (PYTHONPATH=/tmp/old-h2/cocci) the linemap case
# fails (31 of 34 entries mapped further than 3 lines) and the claims case
# cannot import lsmconv.claims.

mkdir -p "$t/20/bin" "$t/20/in"
# the target: the suite's fixture and lsm_hooks.h (DEFINE_LSM,
# __lsm_ro_after_init: lsmconv.form)
cp -R -- "$target" "$t/20/target"
cp -- "$src/include/linux/lsm_hooks.h" "$t/20/target/include/linux/"
saved_target=$target
target=$t/20/target

# --- a fake spatch ---------------------------------------------------------
# FAKE_MODE on a run over a file holding LSMCONV_FAKE_MARK, the real spatch
# (FAKE_REAL) otherwise:
#   exn     a rule run prints "EXN: Stack overflow in FILE", exits 0, changes nothing
#   kill    a rule run is killed by SIGKILL
#   fatal   --parse-c prints "Fatal error: exception Stack_overflow", exits 2
#   lie     rule 12 prints a DEFINE_LSM() finding and changes nothing
#   sweep   the port's legacy sweep prints "EXN: Stack overflow in FILE", exits 0
cat >"$t/20/bin/spatch" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
args=("$@")
rule= dir= parse=0 file=
for ((i = 0; i < ${#args[@]}; i++)); do
	case ${args[i]} in
	--sp-file) rule=${args[i + 1]} ;;
	--dir) dir=${args[i + 1]} ;;
	--parse-c) parse=1 ;;
	esac
done
if [ "$parse" -eq 1 ]; then
	if grep -q LSMCONV_FAKE_MARK "${args[-1]}"; then file=${args[-1]}; fi
elif [ -n "$dir" ]; then
	file=$(grep -rl LSMCONV_FAKE_MARK "$dir" | head -n 1) || file=
fi
if [ -n "$file" ]; then
	case $FAKE_MODE.$parse in
	exn.0)
		echo "EXN: Stack overflow in $file" >&2
		exit 0
		;;
	kill.0) kill -KILL $$ ;;
	fatal.1)
		echo "Fatal error: exception Stack_overflow"
		exit 2
		;;
	sweep.0)
		if [ "${rule##*/}" = legacy-sweep.cocci ]; then
			echo "EXN: Stack overflow in $file" >&2
			exit 0
		fi
		;;
	lie.0)
		if [ "${rule##*/}" = 12-define-lsm.cocci ]; then
			printf 'LSMCONV\treg\t%s\t%s\tsecurity_initcall(foo_init) -> DEFINE_LSM(foo)\n' \
				"$file" "$(grep -n security_initcall "$file" | cut -d: -f1)"
			exit 0
		fi
		;;
	esac
fi
exec "$FAKE_REAL" "$@"
EOF
chmod +x "$t/20/bin/spatch"

# A legacy module: one ops struct, registered, its initcall.
module() {
	cat <<'EOF'
#include <linux/security.h>

static struct security_operations foo_ops = {
	.name = "foo",
	.file_fcntl = foo_file_fcntl,
};

static __init int foo_init(void)
{
	if (register_security(&foo_ops))
		panic("foo");
	return 0;
}

security_initcall(foo_init);
EOF
}

# fake MODE NAME: convert $t/20/in/NAME.c (the module with the marker) with
# the fake spatch in MODE, rules $rules, into $t/20/NAME.out.
fake() {
	{
		echo "/* LSMCONV_FAKE_MARK */"
		module
	} >"$t/20/in/$2.c"
	FAKE_MODE=$1 FAKE_REAL=$(command -v spatch) PATH="$t/20/bin:$PATH" \
		conv file "$t/20/in/$2.c" --out "$t/20/$2.out"
}

rules=20
fake exn exn
tap_check "spatch's 'EXN: Stack overflow' on a rule (exit 0): exit 2 naming the file, the rule and the overflow, nothing written (got $rc)" \
	test "$rc" -eq 2 -a ! -e "$t/20/exn.out" \
	-a -n "$(grep -F "exn.c" <<<"$err" | grep -F 20-hook-list | grep -F 'Stack overflow')"

fake kill kill
tap_check "spatch killed by SIGKILL on a rule: exit 2 naming SIGKILL, the rule and the file, nothing written (got $rc)" \
	test "$rc" -eq 2 -a ! -e "$t/20/kill.out" \
	-a -n "$(grep -F SIGKILL <<<"$err" | grep -F 20-hook-list | grep -F kill.c)"

fake fatal fatal
tap_check "spatch --parse-c's 'Fatal error: exception Stack_overflow': exit 2 naming the file and the error (got $rc)" \
	test "$rc" -eq 2 -a ! -e "$t/20/fatal.out" \
	-a -n "$(grep -F fatal.c <<<"$err" | grep -F 'Fatal error')"

# convert.sh port: its legacy sweep, a spatch run of its own
mkdir -p "$t/20/port"
{
	echo "/* LSMCONV_FAKE_MARK */"
	module
} >"$t/20/port/foo.c"
rc=0
FAKE_MODE=sweep FAKE_REAL=$(command -v spatch) PATH="$t/20/bin:$PATH" \
	"$root/convert.sh" port "$t/20/port" --name foo --target "$target" --out "$t/20/port.out" \
	--report "$t/20/port.md" >/dev/null 2>"$t/stderr" || rc=$?
tap_check "convert.sh port: spatch's 'EXN: Stack overflow' in the legacy sweep: exit 3 naming the sweep and the overflow (got $rc)" \
	test "$rc" -eq 3 -a -n "$(grep -F legacy-sweep.cocci "$t/stderr" | grep -F 'Stack overflow')"

rules=11,12,20
fake lie lie
tap_check "a rule's DEFINE_LSM() claim with no DEFINE_LSM() in the output: exit 3 naming it, nothing written (got $rc)" \
	test "$rc" -eq 3 -a ! -e "$t/20/lie.out" \
	-a -n "$(grep -F 'lie.c:' <<<"$err" | grep -F 'DEFINE_LSM(foo)')"

tap_check "claims: a DEFINE_LSM() claim is checked at its line, a security_initcall() left is named" \
	env PYTHONPATH="$root/cocci" python3 -c '
from lsmconv import claims, items as I
before = b"int x;\nsecurity_initcall(foo_init);\n"
it = I.Item("m.c", 2, "reg", None, "security_initcall(foo_init) -> DEFINE_LSM(foo)", "12-define-lsm")
ok = b"int x;\nDEFINE_LSM(foo) = {\n\t.init = foo_init,\n};\n"
assert claims.check([it], {"m.c": (before, ok)}) == []
bad = claims.check([it], {"m.c": (before, b"int x;\nint y;\nsecurity_initcall(foo_init);\n")})
assert len(bad) == 1 and "DEFINE_LSM(foo)" in bad[0][1], bad
both = b"int x;\nDEFINE_LSM(foo) = {};\nsecurity_initcall(foo_init);\n"
bad = claims.check([it], {"m.c": (before, both)})
assert len(bad) == 1 and "still security_initcall(foo_init)" in bad[0][1], bad
'

# linemap: a rewritten initializer of 4.0's apparmor_ops shape (a .name, a
# blank line, groups of entries): GNU diff without --minimal aligned it as a
# 2-line change and a 40-line delete, and 31 of its 34 entries were reported
# at the list's last line (their claims then failed the check above: make
# v21's series)
tap_check "linemap: each entry of a rewritten 44-line initializer maps within 3 lines of its LSM_HOOK_INIT()" \
	env PYTHONPATH="$root/cocci" python3 -c '
from lsmconv import linemap
blank = {2, 7, 19, 28, 31, 36, 41}
a, n = [], 0
for i in range(44):
    if i == 0:
        a.append("static struct security_operations x_ops = {")
    elif i == 1:
        a.append("\t.name =\t\t\"x\",")
    elif i in blank:
        a.append("")
    elif i == 43:
        a.append("};")
    else:
        a.append("\t.h%d =\t\tx_h%d," % (n, n))
        n += 1
b = ["static struct security_hook_list x_hooks[] = {"] + [
    "\tLSM_HOOK_INIT(%s, x_%s)," % (l[2:l.index(" ")], l[2:l.index(" ")]) if l.startswith("\t.h")
    else l for l in a[3:]]
m = linemap.Map(linemap.opcodes(a, b))
bad = [(l, b[m.forward(i)]) for i, l in enumerate(a) if l.startswith("\t.h") and
       "LSM_HOOK_INIT(%s," % l[2:l.index(" ")] not in "".join(b[max(m.forward(i) - 3, 0):m.forward(i) + 4])]
assert not bad, "%d of %d entries mapped further than 3 lines, e.g. %r -> %r" % (len(bad), n, bad[0][0], bad[0][1])
'

# linemap: statements a rule removed around the one it rewrote (`int ret;`,
# a blank line, `if (ret) return ret;` gone with `ret = register_security()`)
# in one changed run of unequal length: the offset counted over every line
# put the first registration's line on the second's (fuzz seed 31, case 47)
tap_check "linemap: two registrations rewritten with the declaration and blank line before them removed each map into their own security_add_hooks() statement" \
	env PYTHONPATH="$root/cocci" python3 -c '
from lsmconv import linemap
a = ["{", "\tint ret;", "", "\tregister_security(&a_ops);", "\tret = register_security(&b_ops);",
     "\tif (ret)", "\t\treturn ret;", "\treturn 0;", "}"]
b = ["{", "\tsecurity_add_hooks(a_hooks, ARRAY_SIZE(a_hooks),", "\t\t\t   \"a\");",
     "\tsecurity_add_hooks(b_hooks, ARRAY_SIZE(b_hooks),", "\t\t\t   \"b\");", "\treturn 0;", "}"]
m = linemap.Map(linemap.opcodes(a, b), a, b)
got = [m.forward(3), m.forward(4)]
assert got[0] in (1, 2) and got[1] in (3, 4), [b[j] for j in got]
'

# a comment inside a macro body still ends in a backslash-newline, which
# splices the lines (before comments are removed): the entries after it are
# the macro'"'"'s too (fuzz seed 30, case 52: only the first entry was named)
tap_check "an ops struct initialized by a macro with a multi-line comment inside: the todo names the entries after the comment too" \
	env PYTHONPATH="$root/cocci" python3 -c '
from lsmconv import claims
text = ("#define FOO_OPS_INIT { \\\n\t.file_fcntl = foo_file_fcntl, \\\n\t/* \\\n\t * two lines \\\n"
        "\t */ \\\n\t.file_open = foo_file_open, \\\n}\n\n"
        "static struct security_operations foo_ops = FOO_OPS_INIT;\n")
out = claims.hidden(text, ["20"])
assert len(out) == 1 and out[0][0] == 1, out
assert ".file_fcntl = foo_file_fcntl" in out[0][1] and ".file_open = foo_file_open" in out[0][1], out
'

# --- two LSMs registered by one init function ------------------------------
# two_ops SHAPE: a module with a_ops and b_ops, ab_init registering one of
# them under #ifdef/#else (ifdef) or if/else (if).
two_ops() {
	cat <<'EOF'
#include <linux/security.h>

static struct security_operations a_ops = {
	.name = "a",
	.file_fcntl = a_file_fcntl,
};

static struct security_operations b_ops = {
	.name = "b",
	.file_fcntl = b_file_fcntl,
};

static int pick;

static __init int ab_init(void)
{
EOF
	if [ "$1" = ifdef ]; then
		printf '#ifdef CONFIG_A\n\tregister_security(&a_ops);\n#else\n\tregister_security(&b_ops);\n#endif\n'
	else
		printf '\tif (pick)\n\t\tregister_security(&a_ops);\n\telse\n\t\tregister_security(&b_ops);\n'
	fi
	printf '\treturn 0;\n}\n\nsecurity_initcall(ab_init);\n'
}
for shape in ifdef if; do
	two_ops "$shape" >"$t/20/in/two-$shape.c"
	conv file "$t/20/in/two-$shape.c" --out "$t/20/two-$shape.out" --items "$t/20/two-$shape.jsonl"
	ln=$(grep -n 'security_initcall' "$t/20/two-$shape.out/two-$shape.c" | cut -d: -f1)
	tap_check "two ops structs registered under $shape by one init function: exit 1, a todo at the initcall's line ($ln) naming both, no DEFINE_LSM() claimed (got $rc)" \
		test "$rc" -eq 1 -a -n "$ln" \
		-a -n "$(grep -F "\"line\": ${ln:-0}, \"kind\": \"todo\"" "$t/20/two-$shape.jsonl" | grep -F 'registers 2 hook lists')" \
		-a -z "$(grep -F -- '-> DEFINE_LSM' "$t/20/two-$shape.jsonl")"
done

# --- legacy API inside a #define ---------------------------------------------
cat >"$t/20/in/macro.c" <<'EOF'
#include <linux/security.h>

#define FOO_OPS(n) \
static struct security_operations n##_ops = { \
	.name = #n, \
	.file_fcntl = n##_file_fcntl, \
};

FOO_OPS(foo)

static __init int foo_init(void)
{
	if (register_security(&foo_ops))
		panic("foo");
	return 0;
}

security_initcall(foo_init);
EOF
conv file "$t/20/in/macro.c" --out "$t/20/macro.out" --report "$t/20/macro.md"
tap_check "an ops struct defined inside a #define: exit 1, a todo at the #define's line naming the macro (got $rc)" \
	test "$rc" -eq 1 -a -n "$(grep -F -- "- $t/20/in/macro.c:3: legacy LSM API in the body of macro FOO_OPS" "$t/20/macro.md")"

# an ops struct initialized by an object-like macro: a todo at the #define
# naming the macro and its entry, one at the registration of the list no
# file defines
cat >"$t/20/in/init.c" <<'EOF'
#include <linux/security.h>

#define FOO_OPS_INIT { .name = "foo", .file_fcntl = foo_file_fcntl, }

static struct security_operations foo_ops = FOO_OPS_INIT;

static __init int foo_init(void)
{
	if (register_security(&foo_ops))
		panic("foo");
	return 0;
}

security_initcall(foo_init);
EOF
conv file "$t/20/in/init.c" --out "$t/20/init.out" --report "$t/20/init.md"
tap_check "an ops struct initialized by a macro: exit 1, todos at the #define (naming it and .file_fcntl) and at security_add_hooks() of the undefined foo_hooks[] (got $rc)" \
	test "$rc" -eq 1 \
	-a -n "$(grep -F -- "- $t/20/in/init.c:3: macro FOO_OPS_INIT is the initializer" "$t/20/init.md" | grep -F '.file_fcntl = foo_file_fcntl')" \
	-a -n "$(grep -F -- "- $t/20/in/init.c:9: security_add_hooks(foo_hooks, ...) registers foo_hooks[]" "$t/20/init.md")"

# --- legacy API left that nothing named --------------------------------------
# a second registration under #if 0, which spatch skips: left, and named
module | sed 's/^\treturn 0;$/#if 0\n\tif (register_security(\&foo_ops))\n\t\tpanic("again");\n#endif\n\treturn 0;/' \
	>"$t/20/in/if0.c"
conv file "$t/20/in/if0.c" --out "$t/20/if0.out" --report "$t/20/if0.md"
ln=$(grep -n 'register_security' "$t/20/if0.out/if0.c" | cut -d: -f1)
tap_check "a register_security() under #if 0 the rules skip: exit 1, a todo at its line in the output (${ln:-none}) (got $rc)" \
	test "$rc" -eq 1 -a -n "$ln" \
	-a -n "$(grep -F -- "- $t/20/in/if0.c:${ln:-x}: legacy LSM API left that no rule converted or named" "$t/20/if0.md")"

# declared ops objects and pointers (no struct security_operations on 6.1;
# rule 10 is the one that reports run-time uses of ops objects)
module | sed 's/^static struct security_operations foo_ops = {$/extern struct security_operations *security_ops;\nstatic struct security_operations *secondary_ops;\nstatic struct security_operations saved_ops;\n\n\0/' \
	>"$t/20/in/decl.c"
rules=10,11,12,20
conv file "$t/20/in/decl.c" --out "$t/20/decl.out" --report "$t/20/decl.md"
tap_check "declared struct security_operations objects (extern *security_ops, *secondary_ops, saved_ops): exit 1, a todo at each line of the output (got $rc)" \
	test "$rc" -eq 1 \
	-a -n "$(grep -F -- "- $t/20/in/decl.c:$(grep -n 'security_ops;' "$t/20/decl.out/decl.c" | cut -d: -f1): legacy LSM API left" "$t/20/decl.md")" \
	-a -n "$(grep -F -- "- $t/20/in/decl.c:$(grep -n 'secondary_ops;' "$t/20/decl.out/decl.c" | cut -d: -f1): legacy LSM API left" "$t/20/decl.md")" \
	-a -n "$(grep -F -- "- $t/20/in/decl.c:$(grep -n 'saved_ops;' "$t/20/decl.out/decl.c" | cut -d: -f1): legacy LSM API left" "$t/20/decl.md")"

# --- a UTF-8 BOM ---------------------------------------------------------------
rules=20
module >"$t/20/in/nobom.c"
{
	printf '\357\273\277'
	module
} >"$t/20/in/bom.c"
conv file "$t/20/in/nobom.c" --out "$t/20/nobom.out"
conv file "$t/20/in/bom.c" --out "$t/20/bom.out"
tap_check "a file starting with a UTF-8 BOM converts like its twin without (#include <linux/lsm_hooks.h> too), its BOM kept (exit $rc)" \
	test "$rc" -eq 0 -a "$(head -c 3 "$t/20/bom.out/bom.c" | od -An -tx1 | tr -d ' ')" = efbbbf \
	-a -z "$(tail -c +4 "$t/20/bom.out/bom.c" | cmp - "$t/20/nobom.out/nobom.c" 2>&1)" \
	-a -n "$(grep -F '#include <linux/lsm_hooks.h>' "$t/20/nobom.out/nobom.c")"

# --- one section attribute -------------------------------------------------------
# the ops struct's __read_mostly (or __ro_after_init) after the name, before
# it, before the type
i=0
for decl in 'static struct security_operations foo_ops __read_mostly' \
	'static struct security_operations __read_mostly foo_ops' \
	'static __read_mostly struct security_operations foo_ops' \
	'static struct security_operations foo_ops __ro_after_init'; do
	i=$((i + 1))
	module | sed "s/^static struct security_operations foo_ops/$decl/" >"$t/20/in/sect$i.c"
done
conv file "$t/20/in"/sect[1-4].c --out "$t/20/sect.out"
tap_check "__read_mostly/__ro_after_init of the ops struct (4 shapes) is not kept beside __lsm_ro_after_init (gcc: section type conflict) (exit $rc)" \
	test "$rc" -eq 0 -a "$(cat "$t/20/sect.out"/sect[1-4].c | grep -c '__lsm_ro_after_init')" -eq 4 \
	-a -z "$(grep -E '__read_mostly|[^_]__ro_after_init' "$t/20/sect.out"/sect[1-4].c)"

# --- a real stack overflow ---------------------------------------------------------
# a function of one 200,000-term expression (2 MB) overflows spatch's stack
# at the usual 8 MiB (convert.sh raises it to 1 GiB, which the hard limit
# here forbids); a 5.6 MB module converted with 1 GiB in 276 s, 4 GB (docs/converter.md)
python3 - "$t/20/in/deep.c" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#include <linux/security.h>\n\nstatic int foo_big(int x)\n{\n\treturn x\n")
    f.writelines("\t\t+ %d\n" % i for i in range(200000))
    f.write("\t\t;\n}\n\n")
    f.write("static struct security_operations foo_ops = {\n\t.name = \"foo\",\n"
            "\t.file_fcntl = foo_file_fcntl,\n};\n")
EOF
rc=0
(ulimit -Ss 8192 && ulimit -Hs 8192 && exec "$convert" file "$t/20/in/deep.c" --target "$target" \
	--rules 20 --out "$t/20/deep.out" >"$t/stdout" 2>"$t/stderr") || rc=$?
err=$(cat "$t/stderr")
tap_check "a 2 MB function that overflows spatch's 8 MiB stack: exit 2 naming the file and the overflow, nothing written (got $rc)" \
	test "$rc" -eq 2 -a ! -e "$t/20/deep.out" -a -n "$(grep -F deep.c <<<"$err" | grep -F 'Stack overflow')"

target=$saved_target
# shellcheck disable=SC2034 # conv's
rules=20
