// SPDX-License-Identifier: GPL-2.0
///
/// Turn a legacy `struct security_operations` initializer into the hook
/// list of the target tree: `static struct security_hook_list
/// <lsm>_hooks[] __lsm_ro_after_init = { LSM_HOOK_INIT(hook, fn), ... };`.
/// Order, comments, blank lines and preprocessor blocks are kept; the
/// `.name` entry goes (security_add_hooks() carries the name).  <lsm> is
/// the `.name` string, else the ops variable name less an `_security_ops`
/// or `_ops` suffix.  Entries whose field is not a hook of the target tree
/// (vendor or renamed hooks) are left as they are and reported as todo.
/// Positional entries are converted with the member order of the legacy
/// `struct security_operations` when its definition is available (in the
/// file itself or in a file named by LSMCONV_LEGACY_DEFS), entries written
/// with an entry macro (`#define HOOK(x) .x = foo_##x`) or a macro field
/// name (`#define F hook`, `.F = fn`) are expanded; anything else is todo.
///
/// Needs LSMCONV_HOOKDB=<file> (output of cocci/lib/hookdb.py TREE).
/// Run the registration rules (cocci/1*-*.cocci) first: they read the
/// legacy struct for the LSM name.
///
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options: --smpl-spacing --noif0-passing
// Keywords: security_operations, security_hook_list, LSM_HOOK_INIT
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
NULLS = set()


def _load_hooks():
    path = os.environ.get("LSMCONV_HOOKDB")
    if not path:
        sys.stderr.write("lsmconv: LSMCONV_HOOKDB is not set "
                         "(python3 cocci/lib/hookdb.py TREE > FILE)\n")
        sys.exit(2)
    hooks = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2:
                hooks[parts[0]] = parts[1]
    return hooks


HOOKS = _load_hooks()


def _lib_dir():
    """cocci/lib next to the .cocci file spatch runs (its --sp-file argument)."""
    try:
        argv = open("/proc/self/cmdline", "rb").read().decode("utf-8", "replace").split("\0")
    except OSError:
        argv = []
    for i, a in enumerate(argv):
        if a == "--sp-file" and i + 1 < len(argv):
            return os.path.join(os.path.dirname(os.path.abspath(argv[i + 1])), "lib")
        if a.endswith(".cocci") and not a.startswith("-"):
            return os.path.join(os.path.dirname(os.path.abspath(a)), "lib")
    return None


if _lib_dir():
    sys.path.insert(0, _lib_dir())
try:
    from kwrap import wrap
except ImportError:
    def wrap(col, text):
        return text


def entry_col(path, line, column, field=None):
    """Visual column (tabs = 8) where the entry at line/column begins: the
    `.field` of a designated entry (up to 3 lines before its value), else
    the position itself."""
    lines = file_text(path).split("\n")
    i = int(line) - 1
    if field is not None:
        for j in range(i, max(i - 3, -1), -1):
            text = lines[j] if j < len(lines) else ""
            if j == i:
                text = text[:int(column)]
            m = None
            for m in re.finditer(r"\.\s*%s\s*=" % re.escape(field), text):
                pass
            if m:
                return len(lines[j][:m.start()].expandtabs(8))
    text = lines[i] if i < len(lines) else ""
    return len(text[:int(column)].expandtabs(8))


def hook_init(col, hook, fn):
    """`LSM_HOOK_INIT(hook, fn)` as printed from column col, wrapped like
    the kernel when the line (with its comma) is longer than 80 columns."""
    return wrap(col, "LSM_HOOK_INIT(%s, %s)," % (hook, fn))[:-1]


# Script rules here never drop a match (cocci.include_match(False) drops it
# for every later rule, the ops structure included); they bind NONE, which
# matches no code, to switch a transformation off.
NONE = "__lsmconv_no_match__"


def lsm_name(ops, name):
    """The LSM name: the .name string, else ops less _security_ops/_ops."""
    if name and name.startswith('"') and name.endswith('"'):
        return name[1:-1]
    for suffix in ("_security_ops", "_ops"):
        if ops.endswith(suffix) and len(ops) > len(suffix):
            return ops[:-len(suffix)]
    return ops


def lsm_ident(lsm):
    ident = re.sub(r"\W", "_", lsm)
    return ident if re.match(r"[A-Za-z_]", ident) else "_" + ident


def emit(kind, pos, detail):
    if MODE == "patch":
        print("LSMCONV\t%s\t%s\t%s\t%s" % (kind, pos.file, pos.line, detail))
        sys.stdout.flush()
    elif MODE == "report" and kind == "todo":
        coccilib.report.print_report(pos, "TODO: " + detail)
    elif MODE == "org" and kind == "todo":
        coccilib.org.print_todo(pos, detail)


_TEXT = {}


def file_text(path):
    if path not in _TEXT:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                _TEXT[path] = f.read()
        except OSError:
            _TEXT[path] = ""
    return _TEXT[path]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def defines(path):
    """Object-like and function-like macros of a file: name -> (params, body)."""
    out = {}
    text = strip_comments(file_text(path)).replace("\\\n", " ")
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?[ \t]*(.*)$",
                         text, re.M):
        params = None
        if m.group(2) is not None:
            params = [p.strip() for p in m.group(2)[1:-1].split(",") if p.strip()]
        out[m.group(1)] = (params, m.group(3).strip())
    return out


def expand_entry(path, text):
    """Expand an entry macro call into ('field', 'value') or None."""
    m = re.match(r"^\s*(\w+)\s*\((.*)\)\s*$", text, re.S)
    if not m:
        return None
    macro = defines(path).get(m.group(1))
    if not macro or macro[0] is None:
        return None
    params, body = macro
    args = [a.strip() for a in m.group(2).split(",")] if m.group(2).strip() else []
    if len(args) != len(params):
        return None
    for p, a in zip(params, args):
        body = re.sub(r"\s*##\s*\b%s\b" % re.escape(p), a, body)
        body = re.sub(r"\b%s\b\s*##\s*" % re.escape(p), a, body)
        body = re.sub(r"\b%s\b" % re.escape(p), a, body)
    d = re.match(r"^\.\s*(\w+)\s*=\s*(.+?)\s*,?\s*$", body, re.S)
    if not d:
        return None
    return d.group(1), d.group(2)


def field_hook(path, field):
    """Map a designated field to a target hook name (via a macro if need be)."""
    if field in HOOKS:
        return field
    macro = defines(path).get(field)
    if macro and macro[0] is None and macro[1] in HOOKS:
        return macro[1]
    return None


def _members(text):
    m = re.search(r"\bstruct\s+security_operations\s*\{", text)
    if not m:
        return None
    body, depth, i = [], 1, m.end()
    while i < len(text) and depth:
        c = text[i]
        depth += (c == "{") - (c == "}")
        body.append(c)
        i += 1
    body = "".join(body[:-1])
    body = "\n".join(l for l in body.split("\n")
                     if not l.strip().startswith("#"))
    names = []
    for decl in body.split(";"):
        decl = " ".join(decl.split())
        if not decl:
            continue
        fp = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", decl)
        if fp:
            names.append(fp.group(1))
            continue
        plain = re.search(r"(\w+)\s*(\[[^\]]*\])*$", decl)
        if plain:
            names.append(plain.group(1))
    return names


def legacy_members(path):
    """Member order of the legacy struct: this file, else LSMCONV_LEGACY_DEFS."""
    cands = [path] + [p for p in os.environ.get("LSMCONV_LEGACY_DEFS", "").split(":") if p]
    for cand in cands:
        names = _members(strip_comments(file_text(cand)))
        if names:
            return names
    return None

@initialize:python depends on report@
@@
MODE = "report"

@initialize:python depends on org@
@@
MODE = "org"

@initialize:python depends on context@
@@
MODE = "context"

// ---------------------------------------------------------------------
// Analysis: every rule that looks at the legacy initializer runs before
// the first transformation.

@ops@
identifier o;
position p;
@@

 struct security_operations o@p = {...};

@nm@
identifier ops.o;
expression N;
@@

 struct security_operations o = {..., .name = N, ...};

@pnm@
identifier ops.o;
expression N;
@@

 struct security_operations o = {N, ...};

@script:python pnchk@
n << pnm.N;
n2;
@@

coccinelle.n2 = cocci.make_expr(n if n.startswith('"') else NONE)

@script:python lsmn@
o << ops.o;
n1 << nm.N = "";
n2 << pnm.N = "";
h;
@@

if not n2.startswith('"'):
    n2 = ""
coccinelle.h = cocci.make_ident(lsm_ident(lsm_name(o, n1 or n2)) + "_hooks")

@ent@
identifier ops.o, f;
expression e;
position pe;
@@

 struct security_operations o = { ..., .f = e@pe, ...};

@script:python chk@
o << ops.o;
f << ent.f;
e << ent.e;
pe << ent.pe;
f2;
f3;
g;
@@

f2, f3, g = NONE, NONE, NONE
if f != "name" and e in ("NULL", "0"):
    f3 = f
elif f != "name":
    hook = field_hook(pe[0].file, f)
    if hook is None:
        emit("todo", pe[0], "%s: .%s = %s: field is not a hook of the target "
             "tree (vendor or renamed hook); entry left as is" % (o, f, e))
    else:
        emit("entry", pe[0], "%s: LSM_HOOK_INIT(%s, %s)" % (o, hook, e))
        f2 = f
        g = hook_init(entry_col(pe[0].file, pe[0].line, pe[0].column, f), hook, e)
coccinelle.f2 = cocci.make_ident(f2)
coccinelle.f3 = cocci.make_ident(f3)
coccinelle.g = cocci.make_ident(g)

@pos@
identifier ops.o;
initializer list[n] before;
expression e;
position pp;
@@

 struct security_operations o = { before, e@pp, ... };

@script:python pchk@
o << ops.o;
n << pos.n;
before << pos.before;
e << pos.e;
pp << pos.pp;
e2;
x;
@@

path = pp[0].file
n = int(n)
e = str(e)
exp = expand_entry(path, e) if e not in ("NULL", "0") else None
conv = None
if exp is not None:
    hook = field_hook(path, exp[0])
    if hook is None:
        emit("todo", pp[0], "%s: %s expands to .%s, not a hook of the target "
             "tree; entry left as is" % (o, e, exp[0]))
    else:
        conv = (hook, exp[1])
else:
    members = legacy_members(path)
    if n == 0 and e.startswith('"'):
        pass
    elif re.search(r"(^|,)\s*[.\[]", str(before)):
        emit("todo", pp[0], "%s: positional entry %s after a designated one; "
             "convert by hand" % (o, e))
    elif members is None:
        emit("todo", pp[0], "%s: positional entry %s and no legacy struct "
             "security_operations definition to give its field; convert by hand"
             % (o, e))
    elif n >= len(members):
        emit("todo", pp[0], "%s: positional entry %s beyond the %d members of "
             "struct security_operations" % (o, e, len(members)))
    elif members[n] == "name" or (n == 0 and e.startswith('"')):
        pass
    elif e in ("NULL", "0"):
        NULLS.add(o)
    elif members[n] not in HOOKS:
        emit("todo", pp[0], "%s: positional entry %s is member %s, not a hook "
             "of the target tree; entry left as is" % (o, e, members[n]))
    else:
        conv = (members[n], e)
if conv is None:
    coccinelle.e2 = cocci.make_expr(NONE)
    coccinelle.x = cocci.make_ident(NONE)
else:
    emit("entry", pp[0], "%s: LSM_HOOK_INIT(%s, %s)" % (o, conv[0], conv[1]))
    coccinelle.e2 = cocci.make_expr(e)
    coccinelle.x = cocci.make_ident(hook_init(entry_col(path, pp[0].line, pp[0].column),
                                              conv[0], conv[1]))

@script:python pnull@
o << ops.o;
d;
@@

coccinelle.d = cocci.make_ident(o if o in NULLS else NONE)

@script:python depends on !patch@
o << ops.o;
p << ops.p;
@@

emit("todo", p[0], "%s: struct security_operations initializer to turn into "
     "a security_hook_list" % o)

// ---------------------------------------------------------------------
// Transformations.

@depends on patch@
identifier ops.o;
position pos.pp;
expression pchk.e2;
identifier pchk.x;
@@

 struct security_operations o = { ...,
- e2@pp
+ x
 , ...};

@depends on patch@
identifier pnull.d;
@@

 struct security_operations d = { ...,
- NULL,
 ...};

@depends on patch@
identifier ops.o;
expression ent.e;
identifier chk.f2;
identifier chk.g;
@@

 struct security_operations o = { ...,
- .f2 = e,
+ g,
 ...};

@depends on patch@
identifier ops.o;
expression ent.e;
identifier chk.f3;
@@

 struct security_operations o = { ...,
- .f3 = e,
 ...};

@depends on patch@
identifier ops.o;
expression nm.N;
@@

 struct security_operations o = { ...,
- .name = N,
 ...};

@depends on patch@
identifier ops.o;
expression pnchk.n2;
@@

 struct security_operations o = {
- n2,
 ...};

@depends on patch@
identifier ops.o;
identifier lsmn.h;
attribute name __lsm_ro_after_init;
@@

(
- static const struct security_operations o
+ static struct security_hook_list h[] __lsm_ro_after_init
  = {...};
|
- static struct security_operations o
+ static struct security_hook_list h[] __lsm_ro_after_init
  = {...};
|
- const struct security_operations o
+ static struct security_hook_list h[] __lsm_ro_after_init
  = {...};
|
- struct security_operations o
+ static struct security_hook_list h[] __lsm_ro_after_init
  = {...};
)

@hasinc@
@@

 #include <linux/lsm_hooks.h>

@depends on patch && ops && !hasinc@
@@

 #include <linux/security.h>
+#include <linux/lsm_hooks.h>

@depends on context@
identifier ops.o;
@@

* struct security_operations o = {...};
