// SPDX-License-Identifier: GPL-2.0
///
/// Turn the legacy calls through the one security_operations vector,
/// `security_ops->HOOK(args)`, into the calling macros of the target's
/// security/security.c: `call_int_hook(HOOK, IRC, args)` for int hooks and
/// `call_void_hook(HOOK, args)` for void hooks, in every position (return,
/// assignment, initializer, condition, statement).  Return types and IRC
/// come from the target's lsm_hook_defs.h (IRC = the hook's default when it
/// is not 0, else 0).  Hooks whose target wrapper is not a plain call
/// chain are handled by the one special-dispatch table,
/// cocci/lib/special.tsv (see the comments there): converted when that is
/// mechanical (other IRC, capability fallback, `*secid = 0`; neither is
/// added when the statement before is already that `*secid = 0;` or the
/// next one already `if (E == IRC) E = FALLBACK(..);`), else left
/// and reported for a human.  Also left and reported: hooks the target does
/// not have, and void hooks used as a value.  A converted call whose
/// argument count differs from the target hook's is reported as todo.
/// Calls through a `security_ops` that a function or file declares with
/// another type than `struct security_operations *` are not touched.
///
/// Needs LSMCONV_HOOKDB=<file> (output of cocci/lib/hookdb.py TREE).  The
/// table is found next to this file (cocci/lib/special.tsv, via spatch's
/// --sp-file argument) or at LSMCONV_SPECIAL.
///
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options:
// Keywords: security_ops, call_int_hook, call_void_hook
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os
import re
import sys

MODE = "patch"


def _die(msg):
    sys.stderr.write("lsmconv: %s\n" % msg)
    sys.exit(2)


def _sp_dir():
    """Directory of the .cocci file spatch runs (its --sp-file argument)."""
    try:
        argv = open("/proc/self/cmdline", "rb").read().decode("utf-8", "replace").split("\0")
    except OSError:
        return None
    for i, a in enumerate(argv):
        if a == "--sp-file" and i + 1 < len(argv):
            return os.path.dirname(os.path.abspath(argv[i + 1]))
        if a.startswith("--sp-file="):
            return os.path.dirname(os.path.abspath(a.split("=", 1)[1]))
        if a.endswith(".cocci") and not a.startswith("-"):
            return os.path.dirname(os.path.abspath(a))
    return None


def _load_hooks():
    path = os.environ.get("LSMCONV_HOOKDB")
    if not path:
        _die("LSMCONV_HOOKDB is not set (python3 cocci/lib/hookdb.py TREE > FILE)")
    hooks = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 5:
                hooks[parts[0]] = {"ret": parts[1], "default": parts[2],
                                   "args": parts[4]}
    return hooks


def _load_special():
    path = os.environ.get("LSMCONV_SPECIAL")
    if not path:
        d = _sp_dir()
        if d is None:
            _die("cannot find cocci/lib/special.tsv (set LSMCONV_SPECIAL)")
        path = os.path.join(d, "lib", "special.tsv")
    table = {}
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        _die("%s: %s" % (path, e.strerror))
    with f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 5 or parts[1] not in ("irc", "capfall", "secid0", "review", "loop"):
                _die("%s:%d: bad special-table line" % (path, n))
            table[parts[0]] = {"class": parts[1], "irc": parts[2],
                               "extra": parts[3], "why": parts[4]}
    return table


HOOKS = _load_hooks()
SPECIAL = _load_special()


def emit(kind, pos, detail):
    if MODE == "patch":
        print("LSMCONV\t%s\t%s\t%s\t%s" % (kind, pos.file, pos.line, detail))
        sys.stdout.flush()
    elif MODE == "report" and kind == "todo":
        coccilib.report.print_report(pos, "TODO: " + detail)
    elif MODE == "org" and kind == "todo":
        coccilib.org.print_todo(pos, detail)


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


def split_top(sig):
    """Top-level comma-separated parts of a parameter or argument list."""
    parts, depth, cur = [], 0, ""
    for ch in str(sig):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def param_name(decl):
    m = re.search(r"([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*$", decl)
    return m.group(1) if m else None


def param_type(decl):
    n = param_name(decl)
    t = decl[: decl.rfind(n)] if n else decl
    return norm_type(t)


_LEGACY_SIGS = None


def legacy_sig(hook):
    """Parameter list of hook in the legacy struct security_operations
    (LSMCONV_LEGACY_DEFS), or None when no legacy definition is known."""
    global _LEGACY_SIGS
    if _LEGACY_SIGS is None:
        _LEGACY_SIGS = {}
        for path in [q for q in os.environ.get("LSMCONV_LEGACY_DEFS", "").split(":") if q]:
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            m = re.search(r"struct\s+security_operations\s*\{", text)
            if not m:
                continue
            body = text[m.end():]
            for mm in re.finditer(r"\(\s*\*\s*(\w+)\s*\)\s*\(([^;]*)\)\s*;", body):
                _LEGACY_SIGS.setdefault(mm.group(1), mm.group(2))
    return _LEGACY_SIGS.get(hook)


def irc_for_call(f, irc, es):
    """The IRC of special.tsv may name the parameters of the target hook: each is
    replaced by the argument of the call at that position.  Returns (irc, None)
    or (None, reason) when that cannot be done safely."""
    params = split_top(HOOKS[f]["args"])
    names = [param_name(d) for d in params]
    used = [i for i, n in enumerate(names) if n and re.search(r"\b%s\b" % re.escape(n), irc)]
    if not used:
        return irc, None
    args = split_top(es)
    if len(args) != len(params):
        return None, "the call does not pass the %d arguments of the target hook" % len(params)
    legacy = legacy_sig(f)
    if legacy is None:
        return None, "no legacy struct security_operations definition to check the type of %s" % ", ".join(names[i] for i in used)
    lparams = split_top(legacy)
    for i in used:
        if i >= len(lparams) or param_type(lparams[i]) != param_type(params[i]):
            return None, "the legacy parameter %d is `%s`, the target has `%s`" % (
                i + 1, lparams[i] if i < len(lparams) else "missing", params[i])
    out = irc
    for i in used:
        a = args[i]
        if not re.match(r"^[A-Za-z_]\w*$", a):
            a = "(%s)" % a
        out = re.sub(r"\b%s\b" % re.escape(names[i]), lambda m, a=a: a, out)
    return out, None


def default_irc(h):
    d = HOOKS[h]["default"]
    return "0" if d in ("0", "LSM_RET_VOID") else d


def norm_type(t):
    return re.sub(r"\s+", " ", re.sub(r"\s*\*\s*", " *", str(t))).strip()


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


def legacy_ops(pos):
    """False when security_ops at pos is declared with another type."""
    fn = pos.current_element
    t = DECLS.get((pos.file, fn))
    if t is None:
        t = DECLS.get((pos.file, None))
    return t is None or t == "struct security_operations *"

@initialize:python depends on report@
@@
MODE = "report"

@initialize:python depends on org@
@@
MODE = "org"

// ---------------------------------------------------------------------
// Analysis.

// Declarations of something named security_ops: the legacy global, or a
// local/parameter/global of another type that shadows it.
@decl@
type T;
symbol security_ops;
position p;
@@

(
 T security_ops@p;
|
 T security_ops@p = ...;
)

@script:python@
t << decl.T;
p << decl.p;
@@

fn = p[0].current_element
scope = None if fn == "security_ops" else fn
DECLS[(p[0].file, scope)] = norm_type(t)

@parm@
type T;
identifier fn;
symbol security_ops;
position p;
@@

 fn(..., T security_ops@p, ...) {...}

@script:python@
t << parm.T;
fn << parm.fn;
p << parm.p;
@@

DECLS[(p[0].file, fn)] = norm_type(t)

@stm@
symbol security_ops;
identifier f;
expression list es;
position p;
@@

 security_ops->f@p(es);

@script:python@
p << stm.p;
@@

SHAPE[key(p[0])] = "stmt"

@ret@
symbol security_ops;
identifier f;
expression list es;
position p;
@@

 return security_ops->f@p(es);

@script:python@
p << ret.p;
@@

SHAPE[key(p[0])] = "return"

@asg@
symbol security_ops;
identifier f;
expression list es;
expression E;
position p;
@@

 E = security_ops->f@p(es);

@script:python@
p << asg.p;
@@

SHAPE[key(p[0])] = "assign"

// What the target's wrapper adds around the call that is already there:
// `*secid = 0;` right before it, the capability fallback right after it.
@pre0@
symbol security_ops;
identifier f, s;
expression list es;
position p;
@@

 *s = 0;
(
 security_ops->f@p(es, s);
|
 return security_ops->f@p(es, s);
)

@script:python@
s << pre0.s;
p << pre0.p;
@@

HAVE0[key(p[0])] = s

@fbnext@
symbol security_ops;
identifier f, cf;
expression list es, es2;
expression E, I;
position p;
@@

 E = security_ops->f@p(es);
 if (E == I) E = cf(es2);

@script:python@
i << fbnext.I;
cf << fbnext.cf;
p << fbnext.p;
@@

HAVEFB[key(p[0])] = (re.sub(r"\s+", "", str(i)), cf)

@call@
symbol security_ops;
identifier f;
expression list es;
position p;
@@

 security_ops->f@p(es)

@script:python@
f << call.f;
es << call.es;
p << call.p;
@@

pos = p[0]
k = key(pos)
shape = SHAPE.get(k, "expr")
act = None
if not legacy_ops(pos):
    pass
elif f not in HOOKS:
    emit("todo", pos, "security_ops->%s(): %s is not a hook of the target "
         "tree (renamed, split or removed); call left as is, convert by hand"
         % (f, f))
else:
    h = HOOKS[f]
    void = h["ret"] == "void"
    sp = SPECIAL.get(f)
    cls = sp["class"] if sp else None
    irc = sp["irc"] if sp and sp["irc"] != "-" else default_irc(f)
    irc_why = None
    if cls == "irc":
        irc, irc_why = irc_for_call(f, irc, es)
        if irc is None:
            irc = default_irc(f)
    if void and shape != "stmt":
        emit("todo", pos, "security_ops->%s(): void hook used as a value; "
             "call_void_hook() is a statement: convert by hand" % f)
    elif cls == "loop":
        emit("todo", pos, "security_ops->%s(): no calling macro in the target: "
             "%s; call left as is, copy the target's security_%s() by hand"
             % (f, sp["why"], f))
    elif cls == "capfall" and shape != "assign":
        emit("todo", pos, "security_ops->%s(): the target does `ret = "
             "call_int_hook(%s, %s, ...); if (ret == %s) ret = %s(...);` "
             "(%s); this call is not an assignment: left as is, convert by "
             "hand" % (f, f, irc, irc, sp["extra"], sp["why"]))
    else:
        if void:
            act = "void"
        else:
            act = "int"
        if cls == "capfall" and HAVEFB.get(k) == (re.sub(r"\s+", "", irc), sp["extra"]):
            emit("special", pos, "%s: call_int_hook(%s, %s, ...); the fallback "
                 "`if (... == %s) ... = %s(...)` is already the next statement: "
                 "not added again: %s" % (f, f, irc, irc, sp["extra"], sp["why"]))
        elif cls == "capfall":
            act = "capfall"
            emit("special", pos, "%s: call_int_hook(%s, %s, ...) then %s() "
                 "when it returns %s: %s" % (f, f, irc, sp["extra"], irc, sp["why"]))
        elif cls == "secid0":
            last = str(es).split(",")[-1].strip() if str(es).strip() else ""
            if shape in ("stmt", "return") and HAVE0.get(k) == last:
                emit("special", pos, "%s: *%s = 0 before the hook is already "
                     "there: not added again: %s" % (f, last, sp["why"]))
            elif shape in ("stmt", "return") and re.match(r"^[A-Za-z_]\w*$", last):
                act = act + "-secid0"
                emit("special", pos, "%s: *%s = 0 before the hook: %s"
                     % (f, last, sp["why"]))
            else:
                emit("todo", pos, "%s: %s; converted without the reset (it "
                     "is added only before a statement or return whose last "
                     "argument is a plain variable): add it by hand"
                     % (f, sp["why"]))
        elif cls == "irc" and irc_why:
            emit("todo", pos, "%s: converted with IRC %s; the target starts from "
                 "`%s` (%s), but %s: check by hand"
                 % (f, irc, sp["irc"], sp["why"], irc_why))
        elif cls == "irc":
            emit("special", pos, "%s: IRC %s: %s" % (f, irc, sp["why"]))
        elif cls == "review":
            emit("todo", pos, "%s: converted with IRC %s; %s" % (f, irc, sp["why"]))
        if void:
            emit("call", pos, "security_ops->%s(...) -> call_void_hook(%s, ...)" % (f, f))
        else:
            emit("call", pos, "security_ops->%s(...) -> call_int_hook(%s, %s, ...)"
                 % (f, f, irc))
        want, got = nargs_of(h["args"]), nargs_call(es)
        if want != got:
            emit("todo", pos, "%s: the call passes %d argument%s, the target "
                 "hook takes %d (%s): adapt the wrapper by hand"
                 % (f, got, "" if got == 1 else "s", want, h["args"]))
if act:
    ACT[k] = (act, f, irc, sp["extra"] if sp else "-")

// ---------------------------------------------------------------------
// Selection: one environment per hook and action, carrying the IRC (and
// the fallback); the transformations match again and pick their calls by
// position (positions cannot be inherited over modifications).

@initialize:python@
@@


def act_is(p, what):
    a = ACT.get(key(p[0]))
    return a is not None and a[0] == what

@script:python sel@
f << call.f;
p << call.p;
hf;
irc;
cap;
@@

# No cocci.include_match(False) here: dropping an environment would drop it
# for every rule that inherits from `call`.  The transformations pick their
# calls with a position constraint instead.
a = ACT.get(key(p[0]))
coccinelle.hf = cocci.make_ident(f)
coccinelle.irc = cocci.make_expr(a[2] if a and a[2] != "-" else "0")
coccinelle.cap = cocci.make_ident(a[3] if a and a[3] != "-" else "lsmconv_no_fallback")

// ---------------------------------------------------------------------
// Transformations: statement shapes first, then any expression.  The
// whole call is rewritten, so Coccinelle wraps and aligns the arguments
// in kernel style.

@depends on patch@
symbol security_ops;
identifier f;
position p : script:python() { act_is(p, "void-secid0") };
expression list es;
identifier s;
@@

- security_ops->f@p(es, s);
+ *s = 0;
+ call_void_hook(f, es, s);

@depends on patch@
symbol security_ops;
identifier f;
position p : script:python() { act_is(p, "void") };
expression list es;
@@

(
- security_ops->f@p();
+ call_void_hook(f);
|
- security_ops->f@p(es);
+ call_void_hook(f, es);
)

@depends on patch@
symbol security_ops;
identifier sel.hf;
position p : script:python() { act_is(p, "int-secid0") };
expression list es;
identifier s;
expression sel.irc;
@@

(
- security_ops->hf@p(es, s);
+ *s = 0;
+ call_int_hook(hf, irc, es, s);
|
- return security_ops->hf@p(es, s);
+ *s = 0;
+ return call_int_hook(hf, irc, es, s);
)

@depends on patch@
symbol security_ops;
identifier sel.hf;
position p : script:python() { act_is(p, "capfall") };
expression list es;
expression E;
expression sel.irc;
identifier sel.cap;
@@

- E = security_ops->hf@p(es);
+ E = call_int_hook(hf, irc, es);
+ if (E == irc)
+ 	E = cap(es);

@depends on patch@
symbol security_ops;
identifier sel.hf;
position p : script:python() { act_is(p, "int") };
expression list es;
expression sel.irc;
@@

(
- security_ops->hf@p()
+ call_int_hook(hf, irc)
|
- security_ops->hf@p(es)
+ call_int_hook(hf, irc, es)
)

// ---------------------------------------------------------------------
// context mode: show every legacy call.

@depends on context@
symbol security_ops;
identifier hf;
expression list es;
@@

* security_ops->hf(es)
