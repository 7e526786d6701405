# SPDX-License-Identifier: GPL-2.0
"""Rule 30 (30-hook-calls.cocci): legacy `security_ops->HOOK(args)` calls
-> call_int_hook()/call_void_hook().  The rule's script rules record what
they match here and call decide(); the transformations pick their calls
with act_is()."""
import re

from lsmconv import cscan, rule, special
from lsmconv import emit as _emit

emit, set_mode = _emit.emit, _emit.set_mode

# (file, enclosing function or None for file scope) -> declared type
DECLS = {}
# statement-shaped calls: key -> "stmt" | "return" | "assign"
SHAPE = {}
# decided action per call position: key -> (action, hook, irc, extra)
ACT = {}
# calls whose statement before is already `*s = 0;`: key -> s
HAVE0 = {}
# calls whose next statement is `if (E == I) E = cf(...);`: key -> (I, cf)
HAVEFB = {}

_TABLES = []


def tables():
    """(hooks, special table, legacy signatures), loaded once."""
    if not _TABLES:
        hooks = rule.hooks()
        try:
            table = special.for_tree(rule.TARGET, hooks)
        except special.TableError as e:
            rule.die(str(e))
        from lsmconv import legacy
        _TABLES.extend([hooks, table, legacy.sigs(rule.legacy_files())])
    return _TABLES


def key(pos):
    return (pos.file, pos.line, pos.column)


def nargs_of(sig):
    sig = sig.strip()
    if sig in ("", "void"):
        return 0
    depth, n = 0, 1
    for ch in sig:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            n += 1
    return n


def nargs_call(es):
    es = str(es).strip()
    return 0 if not es else nargs_of(es)


norm_type = cscan.norm_type


def legacy_ops(pos):
    """False when security_ops at pos is declared with another type."""
    fn = pos.current_element
    t = DECLS.get((pos.file, fn))
    if t is None:
        t = DECLS.get((pos.file, None))
    return t is None or t == "struct security_operations *"


def act_is(p, what):
    a = ACT.get(key(p[0]))
    return a is not None and a[0] == what


def irc_at(p):
    """The IRC the transformation of the call at p[0] writes."""
    a = ACT.get(key(p[0]))
    return a[2] if a and a[2] != "-" else "0"


def reset_at(p):
    """The value `*SECID = V;` writes before the call at p[0] (secid0):
    special.tsv's extra column, else 0."""
    a = ACT.get(key(p[0]))
    return a[3] if a and a[0].endswith("-secid0") and a[3] != "-" else "0"


def fallback_at(p):
    """The capability fallback the call at p[0] gets (capfall only)."""
    a = ACT.get(key(p[0]))
    return a[3] if a and a[3] != "-" else "lsmconv_no_fallback"


def plan(f, es, shape, hooks, table, sigs, have0=None, havefb=None):
    """The one decision for a legacy call security_ops->f(es) (rule 30
    through decide(), forward.py's textual conversion of the functions
    spatch cannot parse): (act, irc, extra, findings).  act is None (left),
    "void", "int", "void-secid0"/"int-secid0" (`*LAST = extra;` first) or
    "capfall" (`if (E == irc) E = extra(es);` after); findings are (kind,
    message) to report.  shape: "stmt", "return", "assign" or "expr";
    have0: the variable a `*v = 0;` right before the call already resets;
    havefb: the (irc, function) of a fallback already after it."""
    out = []
    if f not in hooks:
        out.append(("todo", "security_ops->%s(): %s is not a hook of the target "
                    "tree (renamed, split or removed); call left as is, convert by hand"
                    % (f, f)))
        return None, None, "-", out
    h = hooks[f]
    void = h.ret == "void"
    sp = table.get(f)
    cls = sp.cls if sp else None
    irc, irc_why = special.irc_of(h, table, es, sigs)
    act = None
    if void and shape != "stmt":
        out.append(("todo", "security_ops->%s(): void hook used as a value; "
                    "call_void_hook() is a statement: convert by hand" % f))
    elif cls == "loop":
        out.append(("todo", "security_ops->%s(): no calling macro in the target: "
                    "%s; call left as is, copy the target's security_%s() by hand"
                    % (f, sp.why, f)))
    elif cls == "capfall" and shape != "assign":
        out.append(("todo", "security_ops->%s(): the target does `ret = "
                    "call_int_hook(%s, %s, ...); if (ret == %s) ret = %s(...);` "
                    "(%s); this call is not an assignment: left as is, convert by "
                    "hand" % (f, f, irc, irc, sp.extra, sp.why)))
    else:
        act = "void" if void else "int"
        if cls == "capfall" and havefb == (re.sub(r"\s+", "", irc), sp.extra):
            out.append(("special", "%s: call_int_hook(%s, %s, ...); the fallback "
                        "`if (... == %s) ... = %s(...)` is already the next statement: "
                        "not added again: %s" % (f, f, irc, irc, sp.extra, sp.why)))
        elif cls == "capfall":
            act = "capfall"
            out.append(("special", "%s: call_int_hook(%s, %s, ...) then %s() "
                        "when it returns %s: %s" % (f, f, irc, sp.extra, irc, sp.why)))
        elif cls == "secid0":
            last = str(es).split(",")[-1].strip() if str(es).strip() else ""
            if shape in ("stmt", "return") and have0 == last:
                out.append(("special", "%s: *%s = 0 before the hook is already "
                            "there: not added again: %s" % (f, last, sp.why)))
            elif shape in ("stmt", "return") and re.match(r"^[A-Za-z_]\w*$", last):
                act = act + "-secid0"
                out.append(("special", "%s: *%s = %s before the hook: %s"
                            % (f, last, sp.extra if sp.extra != "-" else "0", sp.why)))
            else:
                out.append(("todo", "%s: %s; converted without the reset (it "
                            "is added only before a statement or return whose last "
                            "argument is a plain variable): add it by hand"
                            % (f, sp.why)))
        elif cls == "irc" and irc_why:
            out.append(("todo", "%s: converted with IRC %s; the target starts from "
                        "`%s` (%s), but %s: check by hand"
                        % (f, irc, sp.irc, sp.why, irc_why)))
        elif cls == "irc":
            out.append(("special", "%s: IRC %s: %s" % (f, irc, sp.why)))
        elif cls == "review":
            out.append(("todo", "%s: converted with IRC %s; %s" % (f, irc, sp.why)))
        if void:
            out.append(("call", "security_ops->%s(...) -> call_void_hook(%s, ...)" % (f, f)))
        else:
            out.append(("call", "security_ops->%s(...) -> call_int_hook(%s, %s, ...)"
                        % (f, f, irc)))
        want, got = nargs_of(h.args), nargs_call(es)
        if want != got:
            out.append(("todo", "%s: the call passes %d argument%s, the target "
                        "hook takes %d (%s): adapt the wrapper by hand"
                        % (f, got, "" if got == 1 else "s", want, h.args)))
    return act, irc, (sp.extra if sp else "-"), out


def decide(f, es, pos):
    """What to do with the call security_ops->f(es) at pos (plan()):
    recorded in ACT, reported through emit."""
    if not legacy_ops(pos):
        return
    hooks, table, sigs = tables()
    k = key(pos)
    act, irc, extra, findings = plan(f, es, SHAPE.get(k, "expr"), hooks, table, sigs,
                                     HAVE0.get(k), HAVEFB.get(k))
    for kind, message in findings:
        emit(kind, pos, message)
    if act:
        ACT[k] = (act, f, irc, extra)
