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
    describe(e)             what a command says of a Fail or an Interrupted
                            (a signal's name added; None: nothing to say)
    catch_signals()         SIGINT and SIGTERM raise Interrupted, unless
                            Signals.deferred (past the last write: noted
                            in Signals.signum, obeyed at the end); a child
                            in Signals.child gets the signal passed on
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


class Signals:
    """The signal state of a command (one per process)."""
    signum = None       # the first SIGINT/SIGTERM
    deferred = False    # past the last write: noted, not obeyed
    child = None        # a child command (Popen) to pass the signal on to


def on_signal(signum, _frame):
    if Signals.signum is None:
        Signals.signum = signum
    child = Signals.child
    if child is not None and child.poll() is None:
        try:
            child.send_signal(signum)
        except OSError:
            pass
    if not Signals.deferred:
        raise Interrupted(signum)


def catch_signals():
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)


def describe(e):
    """The message of a Fail (with the signal's name when its code is a
    signal's), or "interrupted (SIGNAME)" for an Interrupted; None when a
    Fail has nothing to say (the usage was printed)."""
    if isinstance(e, Interrupted):
        return "interrupted (%s)" % signal.Signals(e.signum).name
    msg = e.args[0] if e.args else None
    if msg and e.code >= 128:
        msg = "%s (%s)" % (msg, signal.Signals(e.code - 128).name)
    return msg
