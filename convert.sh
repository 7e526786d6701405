#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# convert.sh - run lsmconv's semantic patches over legacy LSM code.
#
# usage: convert.sh tree DIR [options]
#        convert.sh file FILE... [options]
#        convert.sh series [series options]   (see scripts/series.sh --help)
#        convert.sh port DIR --name NAME [--target TREE] [--out DIR] [--report FILE]
#
# tree and file are the Python driver cocci/lsmconv/driver.py (options and
# exit codes: convert.sh --help, docs/converter.md); series is
# scripts/series.sh; port is cocci/lsmconv/port.py (docs/porting.md).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

case ${1:-} in
series)
	shift
	exec "$HERE/scripts/series.sh" "$@"
	;;
esac
command -v python3 >/dev/null || {
	echo "convert.sh: python3 is needed (make deps)" >&2
	exit 2
}
export PYTHONPATH="$HERE/cocci${PYTHONPATH:+:$PYTHONPATH}"
export LSMCONV_PROG=convert.sh
if [ "${1:-}" = port ]; then
	shift
	exec python3 -m lsmconv.port "$@"
fi
exec python3 -m lsmconv.driver "$@"
