# SPDX-License-Identifier: GPL-2.0
"""The exit codes of every lsmconv command, for Python (docs/CONTRACTS.md).

The shell's copy of this table is EXIT_* in scripts/lib.sh; tests/lint
checks that the two agree and that no command exits with a bare number.

    DONE       0    done, nothing left for a human
    TODO       1    done, something is left for a human (the todos)
    USAGE      2    usage, input or setup error: nothing was written
    FAILED     3    a step failed after writing started (what was written
                    is named)
    INT, TERM  130, 143  interrupted by SIGINT, SIGTERM

    Fail(msg, code=USAGE)   the error a command reports and exits with
                            (.code)
    Interrupted(signum)     SIGINT or SIGTERM arrived (a command exits
                            interrupted(signum))
"""
import signal

DONE = 0
TODO = 1
USAGE = 2
FAILED = 3
INT = 128 + signal.SIGINT
TERM = 128 + signal.SIGTERM


def interrupted(signum):
    """The exit code of a run stopped by signal signum (130, 143)."""
    return 128 + signum


class Fail(Exception):
    """An error; .code is the exit status."""

    def __init__(self, msg, code=USAGE):
        Exception.__init__(self, msg)
        self.code = code


class Interrupted(Exception):
    """SIGINT or SIGTERM (a child convert.sh or spatch got it too, and
    stops)."""

    def __init__(self, signum):
        Exception.__init__(self, signum)
        self.signum = signum
