#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# pyflakes over lsmconv's Python: one case per tracked .py file (and every
# .py of the cocci/lsmconv package, tracked or not yet), so a failure names
# the file and pyflakes' messages follow as TAP diagnostics.  The
# interpreter is python3 if it has pyflakes (Debian python3-pyflakes),
# else /usr/bin/python3.
# Mutation check: an unused import added to a module makes its case fail
# (tests/lint/run.sh shows `not ok N - pyflakes cocci/lsmconv/X.py`).
#
# Prints TAP 13.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh
echo "TAP version 13"
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
