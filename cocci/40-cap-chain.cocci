// SPDX-License-Identifier: GPL-2.0
///
/// Remove the capability calls that a legacy module made at the top of its
/// own hooks.  A legacy module replaced the capability defaults, so e.g.
/// its capable hook began with `rc = cap_capable(...); if (rc) return rc;`.
/// In the target, capability registers its own hook list first
/// (LSM_ORDER_FIRST, always enabled) and the dispatch in security.c stops
/// after capability's answer under a condition that depends on the hook, so
/// the chain is redundant when it stops under the same one.  Removed, in a
/// function registered for hook H (LSM_HOOK_INIT(H, fn) or `.H = fn` in a
/// security_operations initializer), when every one of these holds:
///  - cap_H is what the target's capability module registers for H
///    (LSM_HOOK_INIT(H, cap_H) in security/commoncap.c);
///  - it is passed the hook's own parameters, unchanged and in order;
///  - it is the first statement (declarations, with initializers or not,
///    may precede it): `rc = cap_H(..); if (STOP) return rc;` or
///    `T rc = cap_H(..); if (STOP) return rc;`, where STOP is the condition
///    under which the target's security_H() stops after capability's
///    answer, derived from the target's security.c by
///    cocci/rewind/gen.py's dispatch_kind() (the code the rewind builds its
///    chains with): `rc` (or `rc != 0`) for call_int_hook hooks, `rc <= 0`
///    when every module must return > 0 (vm_enough_memory), `rc != <the
///    hook's default>` when the first non-default answer wins
///    (inode_getsecurity, task_prctl); or a body that is only
///    `return cap_H(..);` of a call_int_hook hook (which becomes
///    `return 0;`).
/// A declaration of rc left unused is removed too.  Every other call of a
/// capability hook function (one the target declares or registers,
/// cap_<hook of the target>, or cap_<H> for the H the function is
/// registered for; not helpers like cap_raised()) in a registered hook
/// stays and is reported (capchain, with the reason; convert.sh lists the
/// kept ones); it is a todo when it names a function the target lacks, or
/// passes other arguments than the hook got (capability now also runs with
/// the original ones, so the result may differ from the legacy code).
///
/// Needs LSMCONV_HOOKDB=<file> (output of cocci/lib/hookdb.py TREE) and the
/// target tree for security/commoncap.c, security/security.c and
/// include/linux/security.h: LSMCONV_TARGET=<tree> (exported by
/// convert.sh), else build/linux-source-6.1 next to the rule files; the
/// tree is only used when its lsm_hook_defs.h gives the same hooks as
/// LSMCONV_HOOKDB.
///
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options:
// Keywords: cap_capable, capability, security_hook_list, LSM_HOOK_INIT
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


def _cmdline(pid):
    try:
        raw = open("/proc/%s/cmdline" % pid, "rb").read()
    except OSError:
        return []
    return raw.decode("utf-8", "replace").split("\0")


def _sp_dir():
    argv = _cmdline("self")
    for i, a in enumerate(argv):
        if a == "--sp-file" and i + 1 < len(argv):
            return os.path.dirname(os.path.abspath(argv[i + 1]))
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
                hooks[parts[0]] = parts[2]
    return hooks


HOOKS = _load_hooks()   # hook -> default return value


def _read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def _tree_ok(tree):
    text = _read(os.path.join(tree, "include/linux/lsm_hook_defs.h"))
    if text is None:
        return False
    names = set(re.findall(r"^\s*LSM_HOOK\(\s*[^,]+,\s*[^,]+,\s*(\w+)", text, re.M))
    return names == set(HOOKS)


def _find_tree():
    """LSMCONV_TARGET (exported by convert.sh), else build/linux-source-6.1
    next to the rule files."""
    cands = []
    if os.environ.get("LSMCONV_TARGET"):
        cands.append(os.environ["LSMCONV_TARGET"])
    d = _sp_dir()
    if d:
        cands.append(os.path.join(d, "..", "build", "linux-source-6.1"))
    for t in cands:
        if _tree_ok(t):
            return t
    return None


def _load_gen():
    """cocci/rewind/gen.py, whose dispatch_kind() reads how the target's
    security.c walks a hook (the rewind derives its chains from it)."""
    d = _sp_dir()
    if not d:
        return None
    path = os.path.join(d, "rewind", "gen.py")
    try:
        import importlib.util
        spec = importlib.util.spec_from_file_location("lsmconv_rewind_gen", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    except (OSError, ImportError, SyntaxError, SystemExit):
        return None


def _cap_tables(tree):
    """{hook: cap function} of capability_hooks[], and the cap_* functions."""
    caps, funcs = {}, set()
    text = _read(os.path.join(tree, "security/commoncap.c")) or ""
    m = re.search(r"capability_hooks\s*\[\s*\][^=]*=\s*\{(.*?)\n\};", text, re.S)
    if m:
        for h, fn in re.findall(r"LSM_HOOK_INIT\(\s*(\w+)\s*,\s*(\w+)\s*\)", m.group(1)):
            caps[h] = fn
    funcs.update(caps.values())
    hdr = _read(os.path.join(tree, "include/linux/security.h")) or ""
    funcs.update(re.findall(r"^(?:extern\s+)?[\w ]+?\**\s*\b(cap_\w+)\s*\(", hdr, re.M))
    return caps, funcs


TREE = _find_tree()
if TREE is None:
    CAPS, CAPFUNCS = None, set()
else:
    CAPS, CAPFUNCS = _cap_tables(TREE)
GEN = _load_gen()
SEC_C = _read(os.path.join(TREE, "security/security.c")) if TREE else None
_STOP = {}


def target_stop(hook):
    """(kind, condition) under which the target's dispatch of HOOK stops
    after capability's answer cap_rc, from its security.c wrapper
    (gen.dispatch_kind): zero -> `cap_rc`, positive -> `cap_rc <= 0`,
    default -> `cap_rc != <default>`; None when unknown or void."""
    if hook not in _STOP:
        kind = None
        if GEN is not None and SEC_C is not None:
            try:
                kind = GEN.dispatch_kind(SEC_C, hook)
            except SystemExit:
                kind = None
        _STOP[hook] = {"zero": ("zero", "rc"), "positive": ("positive", "rc <= 0"),
                       "default": ("default", "rc != %s" % HOOKS.get(hook))}.get(kind)
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


def split_top(text):
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    last = "".join(cur).strip()
    if last or out:
        out.append(last)
    return out


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


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


_TEXT = {}


def file_lines(path):
    if path not in _TEXT:
        t = _read(path)
        _TEXT[path] = (t or "").split("\n")
    return _TEXT[path]


DECL_START = re.compile(r"^(const|volatile|static|unsigned|signed|struct|union|enum|"
                        r"int|long|short|char|bool|u8|u16|u32|u64|s8|s16|s32|s64|"
                        r"size_t|ssize_t|loff_t|kuid_t|kgid_t|umode_t|dev_t|pid_t|"
                        r"gfp_t|\w+_t)\b")


def leading(pos, fline):
    """Only declarations between the opening brace of the function and pos
    (initializers allowed: `u32 sid = current_sid();` comes before the chain
    in the legacy code and after capability's hook in the target)."""
    lines = file_lines(pos.file)
    start = int(fline) - 1
    end = int(pos.line) - 1
    text = "\n".join(lines[start:end])
    i = text.find("{")
    if i < 0:
        return False
    body = strip_comments(text[i + 1:])
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
    lines = file_lines(pos.file)
    rest = strip_comments("\n".join(lines[int(pos.line) - 1:]))
    j = rest.find(";")
    return j >= 0 and rest[j + 1:].lstrip().startswith("}")


REG = {}      # function -> set of hooks it is registered for
PARAMS = {}   # (file, function) -> parameter names
FLINE = {}    # (file, function) -> line of the function name
SHAPE = {}    # call position -> "assign" | "decl" | "return" | "if"
ACT = {}      # call position -> "assign" | "decl" | "return"
CLEAN = set() # (function, variable): declarations that may now be unused
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

@initialize:python depends on report@
@@
MODE = "report"

@initialize:python depends on org@
@@
MODE = "org"

// ---------------------------------------------------------------------
// Which function is registered for which hook.

@li@
identifier H, fn;
@@

 LSM_HOOK_INIT(H, fn)

@script:python@
h << li.H;
fn << li.fn;
@@

REG.setdefault(fn, set()).add(h)

@oi@
identifier o, H, fn;
@@

 struct security_operations o = { ..., .H = fn, ...};

@script:python@
h << oi.H;
fn << oi.fn;
@@

REG.setdefault(fn, set()).add(h)

@fp@
identifier fn;
parameter list ps;
position pf;
@@

 fn@pf(ps) {...}

@script:python@
fn << fp.fn;
ps << fp.ps;
pf << fp.pf;
@@

PARAMS[(pf[0].file, fn)] = param_names(ps)
FLINE[(pf[0].file, fn)] = pf[0].line

// ---------------------------------------------------------------------
// Shapes of the cap_*() calls.

@sa@
identifier cf =~ "^cap_";
identifier rc;
expression list es;
expression C;
position p;
@@

 rc = cf@p(es);
 if (C) return rc;

@script:python@
p << sa.p;
rc << sa.rc;
c << sa.C;
@@

SHAPE[key(p[0])] = "assign"
RC[key(p[0])] = rc
COND[key(p[0])] = str(c)

@sb@
identifier cf =~ "^cap_";
identifier rc;
type T;
expression list es;
expression C;
position p;
@@

 T rc = cf@p(es);
 if (C) return rc;

@script:python@
p << sb.p;
rc << sb.rc;
c << sb.C;
@@

SHAPE[key(p[0])] = "decl"
RC[key(p[0])] = rc
COND[key(p[0])] = str(c)

@sr@
identifier cf =~ "^cap_";
expression list es;
position p;
@@

 return cf@p(es);

@script:python@
p << sr.p;
@@

SHAPE[key(p[0])] = "return"

@cc@
identifier cf =~ "^cap_";
expression list es;
position p;
@@

 cf@p(es)

@script:python@
cf << cc.cf;
es << cc.es;
p << cc.p;
@@

pos = p[0]
fn = pos.current_element
hooks = REG.get(fn)
# Only capability hook functions count: one the target has (declared in
# security.h or registered by capability), cap_<hook> for a hook of the
# target, or cap_<H> for a (legacy) hook H the function is registered for.
# Helpers such as cap_raised() or cap_issubset() are not chains.
if hooks and not (cf in CAPFUNCS or cf[4:] in HOOKS or cf[4:] in hooks):
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
             "unknown (set LSMCONV_TARGET to the tree of LSMCONV_HOOKDB)" % what)
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
    elif shape in ("assign", "decl") and fline and leading(pos, fline):
        ACT[key(pos)] = shape
        CLEAN.add((fn, RC.get(key(pos))))
        emit("capchain", pos, "%s: removed: the %s hook of capability runs "
             "first in the target with the same arguments, and its dispatch "
             "stops after it when %s" % (what, mine[0],
                                         target_stop(mine[0])[1].replace("rc", RC.get(key(pos)), 1)))
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

@initialize:python@
@@


def cap_act(p, what):
    return ACT.get(key(p[0])) == what

// ---------------------------------------------------------------------
// Transformations.

@depends on patch@
identifier cf, rc;
expression list es;
expression C;
position p : script:python() { cap_act(p, "assign") };
@@

- rc = cf@p(es);
- if (C) return rc;

// (only the initializer goes, so the blank line after the declaration stays)
@depends on patch@
identifier cf, rc;
type T;
expression list es;
expression C;
position p : script:python() { cap_act(p, "decl") };
@@

  T rc
- = cf@p(es)
  ;
- if (C) return rc;

@depends on patch@
identifier cf;
expression list es;
position p : script:python() { cap_act(p, "return") };
@@

- return cf@p(es);
+ return 0;

// A declaration the removal left unused.
@depends on patch@
identifier fn : script:python() { fn in [c[0] for c in CLEAN] };
identifier rc : script:python() { rc in [c[1] for c in CLEAN] };
type T;
@@

 fn(...) {
 ... when any
- T rc;
 ... when != rc
 }

@depends on context@
identifier cf =~ "^cap_";
expression list es;
@@

* cf(es);
