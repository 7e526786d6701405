# SPDX-License-Identifier: GPL-2.0
"""Rule 40 (40-cap-chain.cocci): the capability calls a legacy module made
at the top of its own hooks.  The rule's script rules record the shapes
they match here and call decide() for each cap_*() call; the stop
condition of the target's dispatch comes from lsmconv.dispatch (the code
the rewind builds its chains with)."""
import re

from lsmconv import cscan, dispatch, rule, source
from lsmconv.hooks import split_args
from lsmconv import emit as _emit
from lsmconv.names import here, key, processing

emit, set_mode = _emit.emit, _emit.set_mode
__all__ = ["emit", "set_mode", "key", "param_names", "registered", "decide", "cap_act",
           "clean", "inits", "init_of", "decl_init", "REG", "PARAMS", "FLINE", "SHAPE", "RC",
           "COND", "ACT", "CLEAN"]

_TABLES = {}
_STOP = {}


def _cap_tables(tree):
    """{hook: cap function} of capability_hooks[] (None when the tree has
    none), and the cap_* functions."""
    caps, funcs = {}, set()
    text = source.text(rule.target("security/commoncap.c"))
    m = re.search(r"capability_hooks\s*\[\s*\][^=]*=\s*\{(.*?)\n\};", text, re.S)
    if m:
        for h, fn in re.findall(r"LSM_HOOK_INIT\(\s*(\w+)\s*,\s*(\w+)\s*\)", m.group(1)):
            caps[h] = fn
    funcs.update(caps.values())
    hdr = source.text(rule.target("include/linux/security.h"))
    funcs.update(re.findall(r"^(?:extern\s+)?[\w ]+?\**\s*\b(cap_\w+)\s*\(", hdr, re.M))
    return (caps if m else None), funcs


def tables():
    """(CAPS, CAPFUNCS) of the target, read once."""
    if not _TABLES:
        _TABLES["t"] = _cap_tables(rule.TARGET)
    return _TABLES["t"]


def target_stop(hook):
    """(kind, condition) under which the target's dispatch of HOOK stops
    after capability's answer rc, from its security.c wrapper
    (dispatch.dispatch_kind): zero -> `rc`, positive -> `rc <= 0`,
    default -> `rc != <default>`; None when unknown or void."""
    if hook not in _STOP:
        kind = None
        sec_c = source.text(rule.target("security/security.c"), None)
        if sec_c is not None:
            try:
                kind = dispatch.dispatch_kind(sec_c, hook)
            except LookupError:
                kind = None
        h = rule.hooks().get(hook)
        cond = dispatch.stop(kind, "rc", h.default if h else None)
        _STOP[hook] = (kind, cond) if cond and kind != "void" else None
    return _STOP[hook]


def legacy_stop(cond, rc):
    """The kind of `if (cond) return rc;`: zero, positive, (default, value), or None."""
    c = re.sub(r"\s+", " ", str(cond)).strip()
    if c in (rc, rc + " != 0", "0 != " + rc):
        return ("zero", "rc")
    if c == rc + " <= 0":
        return ("positive", "rc <= 0")
    m = re.match(r"^%s ?!= ?(.+)$" % re.escape(rc), c)
    if m:
        return ("default", "rc != %s" % m.group(1).strip())
    return None


def split_top(text):
    """Top-level comma split (hooks.split_args); nothing for blank text."""
    return split_args(text) if text.strip() else []


def param_names(ps):
    names = []
    for p in split_top(str(ps)):
        if p in ("", "void"):
            continue
        p = re.sub(r"\[[^\]]*\]\s*$", "", p).strip()
        m = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", p)
        if m:
            names.append(m.group(1))
            continue
        m = re.search(r"(\w+)\s*$", p)
        names.append(m.group(1) if m else p)
    return names


DECL_START = re.compile(r"^(const|volatile|static|unsigned|signed|struct|union|enum|"
                        r"int|long|short|char|bool|u8|u16|u32|u64|s8|s16|s32|s64|"
                        r"size_t|ssize_t|loff_t|kuid_t|kgid_t|umode_t|dev_t|pid_t|"
                        r"gfp_t|\w+_t)\b")


def leading(pos, fline):
    """Only declarations between the opening brace of the function and pos
    (initializers allowed: `u32 sid = current_sid();` comes before the chain
    in the legacy code and after capability's hook in the target)."""
    lines = source.lines(pos.file)
    start = int(fline) - 1
    end = int(pos.line) - 1
    text = "\n".join(lines[start:end])
    i = text.find("{")
    if i < 0:
        return False
    body = source.strip_comments(text[i + 1:])
    for chunk in body.split(";"):
        c = chunk.strip()
        if not c:
            continue
        if not DECL_START.match(c):
            return False
        # a declaration, maybe with an initializer (`u32 sid = current_sid();`)
        head = re.split(r"=", c, 1)[0]
        if "(" in head or "{" in head or "}" in head:
            return False
    return True


def only_statement(pos, fline):
    """pos is on the only statement of the body: nothing but } after it."""
    if not leading(pos, fline):
        return False
    lines = source.lines(pos.file)
    rest = source.strip_comments("\n".join(lines[int(pos.line) - 1:]))
    j = rest.find(";")
    return j >= 0 and rest[j + 1:].lstrip().startswith("}")


# Per file, never by a bare name: one spatch process may convert several
# files that use the same function name (convert.sh --jobs).
REG = {}      # (file, function) -> set of hooks it is registered for
PARAMS = {}   # (file, function) -> parameter names
FLINE = {}    # (file, function) -> line of the function name
SHAPE = {}    # call position -> "assign" | "decl" | "return" | "if"
ACT = {}      # call position -> "assign" | "decl" | "return"
CLEAN = set() # (file, function, variable): declarations that may now be unused
INIT = {}     # (file, function, variable) -> the value it starts at instead
RC = {}       # call position -> the variable its result went to
COND = {}     # call position -> the condition of `if (C) return rc;`



def show(expr):
    """An expression as spatch prints it, without its `- EOPNOTSUPP` gaps."""
    e = re.sub(r"\s+", " ", str(expr)).strip()
    return re.sub(r"(^|[=<>!(,] )- (?=\w)", r"\1-", e)


def stop_mismatch(hook, pos):
    """None when `if (C) return rc;` after the call at pos stops exactly
    when the target's dispatch of HOOK stops after capability; else why not."""
    want = target_stop(hook)
    rc = RC.get(key(pos))
    cond = COND.get(key(pos))
    got = legacy_stop(cond, rc)
    if want is None:
        return ("how the target dispatches %s is unknown (no security_%s() "
                "wrapper found in the target's security.c): decide by hand"
                % (hook, hook))
    if got is None or got[0] != want[0] or re.sub(r"\s+", "", got[1]) != re.sub(r"\s+", "", want[1]):
        return ("it returns when `%s`, but the target's dispatch stops after "
                "capability's answer when `%s` (security.c of the target): "
                "the module's behaviour would change; decide by hand"
                % (show(cond), want[1].replace("rc", rc, 1)))
    return None



def registered(fn, hook, pos):
    """fn is registered for hook (LSM_HOOK_INIT or `.hook = fn`) at pos."""
    REG.setdefault((pos.file, fn), set()).add(hook)


def clean(i):
    """The functions (i=1) or variables (i=2) of CLEAN in the file being
    processed."""
    return here(CLEAN, i)


def cap_act(p, what):
    return ACT.get(key(p[0])) == what


def inits(i):
    """The functions (i=1) or variables (i=2) of INIT in the file being
    processed."""
    return here(INIT, i)


def init_of(fn, rc):
    """The value variable rc of fn starts at, in the file being processed."""
    files = set(processing())
    for (f, g, v), value in INIT.items():
        if f in files and g == str(fn) and v == str(rc):
            return value
    return "0"


def decl_init(p):
    """The value `T rc = cap_H(..);` at p[0] becomes."""
    fn = p[0].current_element
    return INIT.get((p[0].file, fn, RC.get(key(p[0]))), "0")


def fall_through(stop):
    """The value of rc after `if (STOP) return rc;` did not return, when
    there is one: 0 for `rc`, V for `rc != V`; None otherwise."""
    if stop == ("zero", "rc"):
        return "0"
    m = re.match(r"^rc != (.+)$", stop[1]) if stop and stop[0] == "default" else None
    return m.group(1) if m else None


def around(pos):
    """(code of pos's file, offset of pos, the function holding it or None)."""
    text = source.text(pos.file)
    lines = text.split("\n")
    at = sum(len(l) + 1 for l in lines[:int(pos.line) - 1]) + int(pos.column)
    f = next((f for f in cscan.functions(text) if f.open < at < f.close), None)
    return cscan.code_text(text), at, f


def plain_decl(pos, rc):
    """Is rc declared before the call at pos, in its function, as `T rc;`
    or `T rc = CONSTANT;` (what the rule can give another start value)?"""
    code, at, f = around(pos)
    if f is None:
        return False
    head = code[f.open + 1:at]
    m = re.search(r"[\w\s\*]\b%s\b\s*(=\s*([^;,]+))?\s*;" % re.escape(rc), head)
    return m is not None and (m.group(2) is None or
                              re.fullmatch(r"-?\s*(\d+|[A-Z_][A-Z0-9_]*)\s*", m.group(2)) is not None)


def read_after(pos, rc):
    """Is rc read after the `if (...) return rc;` that follows the call at
    pos, in the same function, other than by the next statement setting it
    (`rc = ...;`)?"""
    code, at, f = around(pos)
    if f is None:
        return True
    end = code.find(";", code.find(";", at) + 1)
    rest = code[end + 1:f.close]
    if re.match(r"\s*%s\s*=[^=]" % re.escape(rc), rest):
        return False
    return re.search(r"\b%s\b" % re.escape(rc), rest) is not None


def decide(cf, es, pos):
    """A cap_*() call cf(es) at pos: remove the chain (ACT) or say why not."""
    CAPS, CAPFUNCS = tables()
    fn = pos.current_element
    hooks = REG.get((pos.file, fn))
    # Only capability hook functions count: one the target has (declared in
    # security.h or registered by capability), cap_<hook> for a hook of the
    # target, or cap_<H> for a (legacy) hook H the function is registered for.
    # Helpers such as cap_raised() or cap_issubset() are not chains.
    if hooks and not (cf in CAPFUNCS or cf[4:] in rule.hooks() or cf[4:] in hooks):
        hooks = None
    if hooks:
        shape = SHAPE.get(key(pos))
        args = split_top(str(es))
        params = PARAMS.get((pos.file, fn))
        fline = FLINE.get((pos.file, fn))
        mine = sorted(h for h in hooks if CAPS and CAPS.get(h) == cf)
        what = "%s() in %s (registered for %s)" % (cf, fn, ", ".join(sorted(hooks)))
        if CAPS is None:
            emit("todo", pos, "%s: kept: the capability hooks of the target tree are "
                 "unknown (no capability_hooks[] in security/commoncap.c of -D target=%s)"
             % (what, rule.TARGET))
        elif cf not in CAPFUNCS:
            emit("todo", pos, "%s: kept: %s() does not exist in the target; the "
                 "capability module may now do this itself or the hook changed: "
                 "convert by hand" % (what, cf))
        elif not mine:
            emit("capchain", pos, "%s: kept: capability does not register %s for "
                 "this hook in the target, so this call is still the only one"
                 % (what, cf))
        elif params is None or args != params:
            emit("todo", pos, "%s: kept: arguments (%s) are not the own parameters "
                 "of the hook (%s); capability already runs %s with those, so the "
                 "result can differ from the legacy code: decide by hand"
                 % (what, ", ".join(args), ", ".join(params or []), cf))
        elif shape in ("assign", "decl") and stop_mismatch(mine[0], pos):
            emit("capchain", pos, "%s: kept: %s" % (what, stop_mismatch(mine[0], pos)))
        elif shape == "assign" and fline and leading(pos, fline) and \
                read_after(pos, RC.get(key(pos))) and not plain_decl(pos, RC.get(key(pos))):
            emit("capchain", pos, "%s: kept: %s is read after the chain and its "
                 "declaration is not `T %s;` or `T %s = CONSTANT;`: decide by hand"
                 % (what, RC.get(key(pos)), RC.get(key(pos)), RC.get(key(pos))))
        elif shape in ("assign", "decl") and fline and leading(pos, fline) and \
                read_after(pos, RC.get(key(pos))) and fall_through(target_stop(mine[0])) is None:
            emit("capchain", pos, "%s: kept: %s is read after the chain, and no single "
                 "value of it passes `%s`: decide by hand"
                 % (what, RC.get(key(pos)), target_stop(mine[0])[1]))
        elif shape in ("assign", "decl") and fline and leading(pos, fline):
            rc = RC.get(key(pos))
            stop = target_stop(mine[0])
            start = ""
            if read_after(pos, rc):
                # the code after the chain read rc as the check left it
                INIT[(pos.file, fn, rc)] = fall_through(stop)
                ACT[key(pos)] = shape + "-init"
                start = "; %s starts at %s, the value that passed the check" % (
                    rc, fall_through(stop))
            else:
                ACT[key(pos)] = shape
                CLEAN.add((pos.file, fn, rc))
            emit("capchain", pos, "%s: removed: the %s hook of capability runs "
                 "first in the target with the same arguments, and its dispatch "
                 "stops after it when %s%s" % (what, mine[0],
                                               stop[1].replace("rc", rc, 1), start))
        elif shape == "return" and target_stop(mine[0]) != ("zero", "rc"):
            emit("capchain", pos, "%s: kept: the target calls this hook only when "
                 "capability's answer did not stop the dispatch (%s), so the "
                 "module's answer is not simply 0: decide by hand"
                 % (what, "stop condition unknown" if target_stop(mine[0]) is None
                    else "`%s` was false" % target_stop(mine[0])[1]))
        elif shape == "return" and fline and only_statement(pos, fline):
            ACT[key(pos)] = "return"
            emit("capchain", pos, "%s: removed (the hook now returns 0): "
                 "the %s hook of capability runs first in the target with the same "
                 "arguments" % (what, mine[0]))
        elif shape in ("assign", "decl", "return"):
            emit("capchain", pos, "%s: kept: not the first statement of the hook; "
                 "redundant in the target (the %s hook of capability runs first), remove "
                 "by hand if the order of checks does not matter" % (what, mine[0]))
        else:
            emit("capchain", pos, "%s: kept: its error is not returned unchanged; "
                 "redundant in the target (the %s hook of capability runs first), remove "
                 "by hand" % (what, mine[0]))
