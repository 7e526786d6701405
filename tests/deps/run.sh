#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A fresh Debian 12 machine: every external command lsmconv runs (shell
# scripts, Makefile recipes, Python subprocess calls, and the commands of
# tests/deps/indirect.tsv that the kernel build or a tool runs for us) comes
# from a package scripts/deps.sh installs, an Essential/required package of
# a minbase Debian, or a dependency apt pulls in with them; and every
# package deps.sh installs is used.  tests/deps/depcheck.py does the
# reading; see its docstring for the rules.
#
# Mutations (run here, so the checks cannot pass vacuously):
#   - deps.sh without rsync: the rsync case (make headers_install) fails;
#   - deps.sh with an extra package: that package is reported unused;
#   - a script calling `free` (procps, neither in deps.sh nor Essential)
#     is reported, while `free` in a comment, a string or a here-document
#     is not a command.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
cd "$root"
echo "TAP version 13"

if ! command -v dpkg-query >/dev/null; then
	tap_skip "external commands against scripts/deps.sh" "not a Debian system (no dpkg-query)"
	tap_done
	exit
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/lsmconv-deps.XXXXXX")
trap 'rm -rf "$work"' EXIT
check=tests/deps/depcheck.py

python3 "$check" "$root" >"$work/report.tsv" 2>"$work/err" || {
	tap_not_ok "depcheck.py runs"
	tap_diag "$(tail -n 20 "$work/err")"
	tap_done
	exit
}
while IFS=$'\t' read -r kind name pkg how where; do
	[ "$kind" = cmd ] || continue
	case $how in
	MISSING*)
		tap_not_ok "command $name ($where) is installed by scripts/deps.sh: $pkg not in deps.sh, not Essential, not a dependency"
		;;
	*) tap_ok "command $name ($where): $pkg, $how" ;;
	esac
done <"$work/report.tsv"
while IFS=$'\t' read -r kind name used; do
	[ "$kind" = pkg ] || continue
	if [ "$used" = UNUSED ]; then
		tap_not_ok "deps.sh package $name is used: no command of it is run and tests/deps/indirect.tsv gives no reason"
	else
		tap_ok "deps.sh package $name is used: $used"
	fi
done <"$work/report.tsv"

# spatch's Python scripting: coccinelle does not depend on the library it
# loads (libpython3.X.so, from libpython3-dev), so a fresh machine had spatch
# but every rule with a script:python part failed.  Caught on a minbase
# chroot without libpython3-dev: "Py.find_library: unable to find the Python
# library" and no output.
if command -v spatch >/dev/null; then
	printf '@script:python@\n@@\nprint("lsmconv-python-ok")\n' >"$work/py.cocci"
	printf 'int f(void) { return 0; }\n' >"$work/py.c"
	spatch --very-quiet --sp-file "$work/py.cocci" "$work/py.c" >"$work/py.out" 2>&1 || true
	if grep -qx lsmconv-python-ok "$work/py.out"; then
		tap_ok "spatch runs a script:python rule (libpython found)"
	else
		tap_not_ok "spatch runs a script:python rule (libpython found)"
		tap_tail "$work/py.out"
	fi
else
	tap_not_ok "spatch runs a script:python rule: spatch not installed (scripts/deps.sh)"
fi

# Mutation 1: the round-1 bug, a deps.sh without rsync.
sed 's/\<rsync\>//' scripts/deps.sh >"$work/deps-no-rsync.sh"
python3 "$check" "$root" "$work/deps-no-rsync.sh" >"$work/no-rsync.tsv"
tap_check "mutation: removing rsync from deps.sh fails the rsync case (make headers_install)" \
	grep -qP '^cmd\trsync\t[^\t]*\tMISSING' "$work/no-rsync.tsv"

# Mutation 2: a package nothing uses.
sed 's/^\(\tcheckpolicy apparmor\)$/\1 hello/' scripts/deps.sh >"$work/deps-extra.sh"
python3 "$check" "$root" "$work/deps-extra.sh" >"$work/extra.tsv"
tap_check "mutation: an extra package in deps.sh is reported unused" \
	grep -qP '^pkg\thello\tUNUSED$' "$work/extra.tsv"

# Mutation 3: a script that runs a command from an uninstalled package.
fx=$work/fixture
mkdir -p "$fx/scripts" "$fx/tests/deps"
# the fixture's deps.sh lacks procps (the real one installs it)
grep -v '^[[:space:]]*procps$' scripts/deps.sh >"$fx/scripts/deps.sh"
cp tests/deps/depcheck.py tests/deps/indirect.tsv "$fx/tests/deps/"
cat >"$fx/scripts/mem.sh" <<'EOT'
#!/bin/sh
# free -g would be a command here, but this is a comment
echo "free memory:" "$(free -g | tail -1)"
cat <<'X'
free
X
EOT
cat >"$fx/scripts/quiet.sh" <<'EOT'
#!/bin/sh
# free
echo "free" 'free'
cat <<'X'
free
X
EOT
git -C "$fx" init -q
git -C "$fx" add -A
if command -v free >/dev/null; then
	python3 "$fx/tests/deps/depcheck.py" "$fx" >"$work/fx.tsv"
	tap_check "mutation: a script running free (procps, not in the fixture's deps.sh) is reported missing" \
		grep -qP '^cmd\tfree\t[^\t]*\tMISSING[^\t]*\tscripts/mem.sh:3$' "$work/fx.tsv"
	rm "$fx/scripts/mem.sh"
	git -C "$fx" add -A
	python3 "$fx/tests/deps/depcheck.py" "$fx" >"$work/fx2.tsv"
	tap_check "free in a comment, a string and a here-document is not a command" \
		test -z "$(grep -P '^cmd\tfree\t' "$work/fx2.tsv")"
else
	tap_skip "mutation: a script running free is reported missing" "free (procps) not installed here"
	tap_skip "free in a comment, a string and a here-document is not a command" "free (procps) not installed here"
fi
tap_done
