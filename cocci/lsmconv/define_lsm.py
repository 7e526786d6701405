# SPDX-License-Identifier: GPL-2.0
"""Rule 12 (12-define-lsm.cocci): security_initcall(fn) -> DEFINE_LSM()."""
from lsmconv import emit as _emit, form, rule
from lsmconv.names import lsm_ident

emit, set_mode = _emit.emit, _emit.set_mode
__all__ = ["emit", "set_mode", "HAVE", "INITS", "NAMES", "initcall"]

HAVE = set()    # files with a DEFINE_LSM()
INITS = set()   # (file, fn): a DEFINE_LSM() has .init = fn
NAMES = {}      # (file, fn): the names fn gives security_add_hooks()
TOLD = set()    # (file, fn) whose todo was emitted (mk runs once per name)
# A script rule that drops a match drops it for every later rule, so both
# outcomes are bound: the transformation that does not apply gets a name
# that matches no initcall.
NONE = "__lsmconv_no_such_function__"


def initcall(fn, s, pos):
    """security_initcall(fn) at pos, fn calling security_add_hooks(.., s):
    (rm, mkfn, l, nstr): remove the initcall of rm, or turn that of mkfn
    into DEFINE_LSM(l) = { .name = nstr, .init = mkfn }."""
    rm, mkfn, l, nstr = NONE, NONE, NONE, '""'
    if not form.define_lsm(rule.target()):
        pass    # the target registers its LSMs by initcall (before 5.1)
    elif (pos.file, fn) in INITS:
        emit("reg", pos, "security_initcall(%s) removed: DEFINE_LSM() already "
             "has .init = %s" % (fn, fn))
        rm = fn
    elif pos.file in HAVE:
        emit("todo", pos, "security_initcall(%s) in a file that already has a "
             "DEFINE_LSM() without .init = %s: merge by hand" % (fn, fn))
    elif len(NAMES.get((pos.file, fn), ())) > 1:
        if (pos.file, fn) not in TOLD:
            TOLD.add((pos.file, fn))
            emit("todo", pos, "security_initcall(%s): %s registers %d hook lists (%s), "
                 "e.g. in #ifdef or if/else branches, and one DEFINE_LSM() names one LSM: "
                 "write a DEFINE_LSM() per LSM by hand (each with its own .init), or "
                 "register one list under one name"
                 % (fn, fn, len(NAMES[(pos.file, fn)]),
                    ", ".join(sorted(NAMES[(pos.file, fn)]))))
    elif not (s.startswith('"') and s.endswith('"')):
        emit("todo", pos, "security_initcall(%s): %s does not call "
             "security_add_hooks() with a literal name; write DEFINE_LSM() by hand"
             % (fn, fn))
    else:
        emit("reg", pos, "security_initcall(%s) -> DEFINE_LSM(%s)"
             % (fn, lsm_ident(s[1:-1])))
        mkfn, l, nstr = fn, lsm_ident(s[1:-1]), s
    return rm, mkfn, l, nstr
