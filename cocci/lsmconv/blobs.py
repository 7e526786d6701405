# SPDX-License-Identifier: GPL-2.0
"""Security blobs: what the target's framework allocates, and the port's
rewrite of a module's own blob allocation to the lsm_blob_sizes form.

    python3 -m lsmconv.blobs TREE     prints kind, lbs field, struct, member,
                                      alloc hooks, free hooks

The blob kinds come from the target tree, never from a typed list:
  - the lbs_* members of struct lsm_blob_sizes (include/linux/lsm_hooks.h);
  - security/security.c's allocator of each, `lsm_KIND_alloc(struct T *v, ...)`
    storing into `v->MEMBER`: kind KIND (field lbs_KIND) lives in
    `struct T`'s MEMBER;
  - the hooks the framework calls after allocating (a security_*() function
    calling lsm_KIND_alloc(x) and then call_int_hook(HOOK, ..., x, ...)) and
    before freeing (call_void_hook(HOOK, ..., x, ...) followed by a kfree,
    kmem_cache_free or call_rcu of x->MEMBER), with x's argument position.

The hand-typed knowledge is in two documented tables, one reason a row:
EXPR_TYPES (expressions whose type the port cannot read from a declaration)
and LEGACY_MEMBERS (blob pointers of the legacy kernels, so that a use is
named even where the target allocates no such blob).

rewrite(port) is the port's `blob` check (see docs/porting.md,
port mode): for each kind whose alloc/free hooks in the module have the
simple shapes, it declares NAME_blob_sizes and an accessor NAME_KIND(),
sets .blobs in DEFINE_LSM(NAME), removes the simple hooks and their
LSM_HOOK_INIT entries, turns a copying alloc hook (cred_prepare) into one
that uses the accessors, and rewrites the other reads; everything else is
a todo (items on the port's lines: lsmconv.items).
"""
import os
import re
import sys

from lsmconv import cscan, headers, hooks as hookmod, source
from lsmconv.cscan import code_text as strip_comments
from lsmconv.items import Line, port_item as Item

# expression -> (struct type, reason).  The only hand-typed type knowledge.
EXPR_TYPES = {
    "current_cred()": ("cred", "include/linux/cred.h: a macro "
                       "(rcu_dereference_protected(current->cred, 1)), no prototype to read; "
                       "it is the current task's const struct cred *"),
}

# blob pointer member -> reason it is searched for in the module
LEGACY_MEMBERS = {
    "security": "cred, task_struct, kern_ipc_perm, msg_msg, key, linux_binprm (before 5.8) "
                "and others: the generic blob pointer since 2.6",
    "i_security": "struct inode's blob pointer",
    "f_security": "struct file's blob pointer",
    "sk_security": "struct sock's blob pointer",
    "s_security": "struct super_block's blob pointer",
}


class Kind:
    __slots__ = ("name", "lbs", "struct", "member", "var", "alloc", "free")

    def __init__(self, name, lbs, struct, member, var):
        self.name, self.lbs, self.struct, self.member, self.var = name, lbs, struct, member, var
        self.alloc = {}     # hook -> argument position of the object
        self.free = {}


def lbs_fields(tree):
    text = source.text(os.path.join(tree, "include/linux/lsm_hooks.h"))
    m = re.search(r"struct lsm_blob_sizes\s*\{(.*?)\}", text, re.S)
    return set(re.findall(r"\b(lbs_\w+)\s*;", m.group(1))) if m else set()


def kinds(tree):
    """{kind: Kind} of the blobs the target's framework allocates."""
    fields = lbs_fields(tree)
    text = strip_comments(source.text(os.path.join(tree, "security/security.c")))
    funcs = [(f[0], ", ".join(f[1]), f[4]) for f in functions(text)]
    out = {}
    for name, params, body in funcs:
        m = re.match(r"lsm_(\w+)_alloc$", name)
        p = re.match(r"\s*struct\s+(\w+)\s*\*\s*(\w+)", params)
        if not m or not p or "lbs_" + m.group(1) not in fields:
            continue
        # `p->member = kzalloc(...)` (6.1), or a helper given the member's
        # address, `lsm_blob_alloc(&p->member, ...)` (6.12)
        a = (re.search(r"\b%s\s*->\s*(\w+)\s*=\s*\w*alloc\w*\s*\(" % p.group(2), body) or
             re.search(r"\b\w*alloc\w*\s*\(\s*&\s*%s\s*->\s*(\w+)\b" % p.group(2), body))
        if a:
            out[m.group(1)] = Kind(m.group(1), "lbs_" + m.group(1), p.group(1), a.group(1),
                                   p.group(2))
    # call_int_hook(FUNC, IRC, args...) before 6.9, call_int_hook(HOOK,
    # args...) after: where the hook's arguments start, from the macro.
    first = 2 if re.search(r"#\s*define\s+call_int_hook\s*\(\s*\w+\s*,\s*\w+\s*,", text) else 1
    for name, params, body in funcs:
        if not name.startswith("security_"):
            continue
        for k in out.values():
            m = re.search(r"\blsm_%s_alloc\s*\(\s*(\w+)" % k.name, body)
            if m:
                for c in cscan.calls(body[m.end():], "call_int_hook"):
                    args = c.args
                    if m.group(1) in args[first:]:
                        k.alloc[args[0]] = args[first:].index(m.group(1))
        for c in cscan.calls(body, "call_void_hook"):
            args = c.args
            rest = body[c.end:]
            if not re.search(r"\b(kfree|kmem_cache_free|call_rcu)\s*\(", rest):
                continue
            for k in out.values():
                v = re.search(r"\b(\w+)\s*->\s*%s\b" % k.member, rest)
                if v and v.group(1) in args[1:] and re.search(
                        r"\bstruct\s+%s\s*\*\s*%s\b" % (k.struct, v.group(1)), params):
                    k.free[args[0]] = args[1:].index(v.group(1))
    return out


# ---------------------------------------------------------------- module side

def functions(code):
    """[(name, params, first line idx, last line idx, body)] of the
    function definitions in C code (lsmconv.cscan.functions); the body is
    what is between the braces, without the line break before the `}`."""
    out = []
    for f in cscan.functions(code):
        body = code[f.open + 1:f.close]
        if body.endswith("\n"):
            body = body[:-1]
        params = cscan.split_args(f.params) if f.params.strip() else []
        out.append((f.name, params, f.first - 1, f.last - 1, body))
    return out


def statements(body):
    """The body's statements, whitespace collapsed; an `if (c) stmt;` is one."""
    out, cur, depth = [], [], 0
    for ch in body:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        cur.append(ch)
        if ch == ";" and depth == 0:
            out.append(re.sub(r"\s+", " ", "".join(cur)).strip())
            cur = []
    if "".join(cur).strip():
        out.append(None)        # something that is not a plain statement
    return out


def _null_check(s, p):
    return re.match(r"if \( ?(!\s*%s|%s == NULL|unlikely\(!\s*%s\)) ?\) return -ENOMEM;$"
                    % (p, p, p), s)


def _alloc(s, p=None):
    """`[struct T *]p = kzalloc(sizeof(...), gfp);` -> (decl T or None, p, size)."""
    m = re.match(r"(?:struct (\w+) ?\* ?)?(\w+) = kzalloc\( ?sizeof ?\(? ?(\*\s*\w+|struct \w+) ?\)?"
                 r" ?, ?[^,;()]+\);$", s)
    if m and (p is None or m.group(2) == p):
        return m.group(1), m.group(2), m.group(3)
    return None


def size_type(size, p, decls):
    """struct T of sizeof(SIZE) for pointer p, or None."""
    size = re.sub(r"\s+", " ", size).strip()
    m = re.match(r"struct (\w+)$", size)
    if m:
        return m.group(1)
    if re.match(r"\*\s*%s$" % p, size):
        return decls.get(p)
    return None


def local_decls(text):
    """{var: struct T} of `[const] struct T *var` declarations in text."""
    out = {}
    for m in re.finditer(r"\bstruct\s+(\w+)\s*\*\s*(?:const\s+)?(\w+)\s*(?=[,;=)])", text):
        out.setdefault(m.group(2), m.group(1))
    return out


def simple_alloc(body, obj, member):
    """The T of a body that only kzalloc's a struct T into obj->member."""
    st = statements(body)
    if None in st:
        return None
    decls = local_decls(body)
    target = r"%s ?-> ?%s" % (obj, member)
    # obj->member = kzalloc(sizeof(struct T), gfp); then a NULL check
    if len(st) in (2, 3):
        m = re.match(r"%s = kzalloc\( ?sizeof ?\( ?struct (\w+) ?\) ?, ?[^,;()]+\);$"
                     % target, st[0])
        if m:
            tail = st[1:]
            if tail == ["return %s->%s ? 0 : -ENOMEM;" % (obj, member)] or \
                    tail == ["return %s ? 0 : -ENOMEM;" % (obj + " -> " + member)] or (
                        len(tail) == 2 and tail[1] == "return 0;" and
                        _null_check(tail[0], target)):
                return m.group(1)
            return None
    # [struct T *p;] p = kzalloc(...); if (!p) return -ENOMEM; obj->member = p; return 0;
    if len(st) == 5:
        d = re.match(r"struct (\w+) ?\* ?(\w+);$", st[0])
        if not d:
            return None
        st = st[1:]
    if len(st) != 4:
        return None
    a = _alloc(st[0])
    if not a:
        return None
    p = a[1]
    t = size_type(a[2], p, decls)
    if t and decls.get(p) == t and _null_check(st[1], p) and re.match(
            r"%s = %s;$" % (target, p), st[2]) and st[3] == "return 0;":
        return t
    return None


def simple_free(body, obj, member):
    st = statements(body)
    if None in st or not st:
        return False
    if not re.match(r"kfree\( ?%s ?-> ?%s ?\);$" % (obj, member), st[0]):
        return False
    return st[1:] in ([], ["%s->%s = NULL;" % (obj, member)])


def copy_alloc(body, obj, member):
    """A body that kzalloc's p, checks it, copies into it and stores it in
    obj->member: (T, p) or None."""
    st = statements(body)
    if None in st:
        return None
    decls = local_decls(body)
    allocs = [i for i, s in enumerate(st) if "kzalloc" in s]
    if len(allocs) != 1:
        return None
    i = allocs[0]
    a = _alloc(st[i])
    if not a or i + 1 >= len(st) or not _null_check(st[i + 1], a[1]):
        return None
    p = a[1]
    t = size_type(a[2], p, decls)
    if not t or decls.get(p) != t:
        return None
    stores = [j for j, s in enumerate(st) if re.match(r"%s ?-> ?%s = %s;$" % (obj, member, p), s)]
    if len(stores) != 1:
        return None
    for j, s in enumerate(st):
        if j in (i, i + 1, stores[0]):
            continue
        # p stored, freed or reassigned anywhere else: not this shape
        if re.search(r"(=|\(|,)\s*%s\s*[;,)]|\b%s\s*=[^=]|kfree" % (p, p), s) and not \
                re.match(r"struct %s ?\* ?%s;$" % (t, p), s):
            return None
    return t, p


# ---------------------------------------------------------------- the rewrite

def expr_type(base, decls):
    if base in EXPR_TYPES:
        return EXPR_TYPES[base][0]
    return decls.get(base)


USE_RE = r"(&\s*)?(\b\w+\s*(?:\(\s*\))?)\s*->\s*(%s)\b(\s*=(?!=))?"


def rewrite(port, enabled=True):
    """The `blob` check of the port (see the module docstring)."""
    ks = kinds(port.target)
    by_member = {}
    for k in ks.values():
        by_member.setdefault(k.member, []).append(k)
    members = sorted(set(by_member) | set(LEGACY_MEMBERS))
    use_re = re.compile(USE_RE % "|".join(members))
    ident = port.ident
    sizes = "%s_blob_sizes" % ident
    files = port.files
    code = {rel: strip_comments(port.text(rel)) for rel in files}
    funcs = {rel: functions(code[rel]) for rel in files}
    entries = [e for e in port.entries() if e[3] == "init"]

    def enclosing(rel, idx):
        for f in funcs[rel]:
            if f[2] <= idx <= f[3]:
                return f
        return None

    # every use: (rel, idx, match, kind or None, function); the type of its
    # base where a declaration says it
    uses = []
    typs = {}
    for rel in files:
        for idx, t in enumerate(code[rel].split("\n")):
            for m in use_re.finditer(t):
                f = enclosing(rel, idx)
                decls = local_decls(", ".join(f[1]) + ";\n" + f[4]) if f else {}
                base = re.sub(r"\s+", "", m.group(2))
                # a member (bprm->cred->security), a call's or an index's result:
                # not a declared variable, its type is not known
                pre = t[:m.start(2)]
                typ = None if re.search(r"(->|\.|\)|\])\s*$", pre) and not re.search(
                    r"\(\s*(const\s+)?(struct\s+)?\w+\s*\**\s*\)\s*$", pre) else \
                    expr_type(base, decls)
                k = [k for k in by_member.get(m.group(3), []) if k.struct == typ]
                uses.append((rel, idx, m, k[0] if k else None, f))
                typs[(rel, idx, m.start())] = typ

    # -- decide per kind
    plan = {}       # kind -> dict
    why_not = {}
    defrel = [rel for rel in files if re.search(r"\bDEFINE_LSM\s*\(\s*%s\s*\)" % ident, code[rel])]
    for k in ks.values():
        kuses = [u for u in uses if u[3] is k]
        acc = "%s_%s" % (ident, k.name)
        ours = [rel for rel in files if re.search(
            r"\b%s\s*\(\s*const\s+struct\s+%s\s*\*\s*\w+\s*\)\s*\{\s*return\s+\w+\s*->\s*%s\s*\+\s*"
            r"%s\.%s\s*;" % (acc, k.struct, k.member, sizes, k.lbs), code[rel])]
        if ours:
            plan[k.name] = {"rel": ours[0], "done": True, "remove": [], "copy": [], "T": None}
            continue
        if not kuses:
            continue
        if not enabled:
            why_not[k.name] = None
            continue
        hooked = [(h, fn, e) for e in entries for h, fn in [(e[4], e[5])]
                  if h in k.alloc or h in k.free]
        reason = None
        if not hooked:
            reason = "the module registers none of the target's %s alloc/free hooks (%s)" % (
                k.name, ", ".join(sorted(k.alloc) + sorted(k.free)))
        elif len(defrel) != 1:
            reason = "no single file with DEFINE_LSM(%s)" % ident
        elif any(u[0] != defrel[0] for u in kuses):
            reason = "the uses are in more than one file (the accessor would need a header)"
        elif any(f[0] == acc for fs in funcs.values() for f in fs):
            reason = "the module has a function %s() already" % acc
        rel = defrel[0] if defrel else None
        remove, copy, types = [], [], set()
        for h, fn, e in hooked:
            if reason:
                break
            fdef = [f for f in funcs.get(rel, []) if f[0] == fn]
            if len(fdef) != 1 or e[0] != rel:
                reason = "%s() is not defined in %s next to its entry" % (fn, rel)
                break
            f = fdef[0]
            others = len(re.findall(r"\b%s\b" % fn, "\n".join(code.values())))
            pos = k.alloc.get(h, k.free.get(h))
            obj = hookmod.param(f[1][pos])[1] if pos is not None and pos < len(f[1]) else None
            if obj is None:
                reason = "%s() has no parameter for the %s" % (fn, k.name)
                break
            if any(it.kind == "todo" for l in files[rel][f[2]:f[3] + 1] for it in l.items):
                reason = "%s() has another todo" % fn
                break
            if others != 2:
                reason = ("%s() is named elsewhere than its definition and its entry (a "
                          "prototype or a direct call): the port does not remove it" % fn)
                break
            if h in k.alloc:
                t = simple_alloc(f[4], obj, k.member)
                if t:
                    remove.append((h, fn, e, f, "alloc", obj, t))
                    types.add(t)
                    continue
                c = copy_alloc(f[4], obj, k.member)
                if c:
                    copy.append((h, fn, f, obj, c[0], c[1]))
                    types.add(c[0])
                    continue
                reason = ("%s() (%s) is not the simple shape (only kzalloc of sizeof(struct T) "
                          "into %s->%s, -ENOMEM on NULL, return 0) nor a copy into a new blob"
                          % (fn, h, obj, k.member))
                break
            if simple_free(f[4], obj, k.member):
                remove.append((h, fn, e, f, "free", obj, None))
                continue
            reason = ("%s() (%s) does more than kfree(%s->%s)" % (fn, h, obj, k.member))
        if not reason and re.search(r"\bstruct\s+lsm_blob_sizes\b|\.blobs\s*=",
                                    "\n".join(code.values())):
            reason = ("the module declares lsm_blob_sizes already (its own, or %s from an "
                      "earlier port run): add .%s to it and an accessor by hand, then remove "
                      "the hooks" % (sizes, k.lbs))
        if not reason and len(types) != 1:
            reason = "the alloc hooks disagree on the blob type (%s)" % ", ".join(sorted(types)) \
                if types else "no alloc hook says the blob's type"
        if reason:
            why_not[k.name] = reason
            continue
        plan[k.name] = {"rel": rel, "done": False, "remove": remove, "copy": copy,
                        "T": types.pop()}

    # -- rewrite: uses first (line contents only), then deletions and insertions
    pending = []            # (rel, idx, Item) placed after the line edits
    removed_fn = {(rel, p["remove"][i][3][2]) for rel in files for p in plan.values()
                  for i in range(len(p["remove"])) if p["rel"] == rel}
    copy_fns = {(p["rel"], c[2][2]): (k, c) for k, p in plan.items() for c in p["copy"]}
    edits = {}              # (rel, idx) -> new text
    todo_lines = set()
    for rel, idx, m, k, f in sorted(uses, key=lambda u: (u[0], u[1], -u[2].start())):
        p = plan.get(k.name) if k else None
        line_code = code[rel].split("\n")[idx]
        chain = re.search(r"(?:\w+\s*(?:->|\.)\s*)*$", line_code[:m.start(2)]).group(0)
        where = "%s%s->%s" % (re.sub(r"\s+", "", chain), re.sub(r"\s+", "", m.group(2)),
                              m.group(3))
        if f and (rel, f[2]) in removed_fn:
            continue
        if p is not None:
            acc = "%s_%s" % (ident, k.name)
            if f and f[0] == acc:
                continue
            line = edits.get((rel, idx), files[rel][idx].text)
            cp = copy_fns.get((rel, f[2])) if f else None
            if cp and re.match(r"\s*%s\s*->\s*%s\s*=\s*%s\s*;\s*$" % (
                    cp[1][3], k.member, cp[1][5]), code[rel].split("\n")[idx]):
                continue        # the store of the copy hook, deleted below
            freed = re.search(r"\b(kfree|kmem_cache_free|kvfree)\s*\(\s*$", code[rel].split(
                "\n")[idx][:m.start()])
            if m.group(1) or m.group(4) or freed:
                todo_lines.add((rel, idx))
                pending.append((rel, idx, Item("todo", "blob", (
                    "%s %s%s: the framework allocates and frees every %s's blob now (.%s in "
                    "%s, DEFINE_LSM(%s).blobs): remove this %s; the module's part is %s(%s)"
                    % ("assignment to" if m.group(4) else "free of" if freed else "address of",
                       where, " in %s()" % f[0] if f else "", k.struct, k.lbs, sizes, ident,
                       "code (and the allocation it stores)" if m.group(4) else "code",
                       acc, re.sub(r"\s+", "", m.group(2)))))))
                continue
            raw = files[rel][idx].text
            seg = raw[m.start(2):m.end(3)]
            if re.sub(r"\s+", "", seg) != re.sub(r"\s+", "", m.group(2) + "->" + m.group(3)):
                todo_lines.add((rel, idx))
                pending.append((rel, idx, Item("todo", "blob", "direct use of %s: use %s()"
                                                % (where, acc))))
                continue
            base = re.sub(r"\s+", "", m.group(2))
            line = line[:m.start(2)] + "%s(%s)" % (acc, base) + line[m.end(3):]
            edits[(rel, idx)] = line
            pending.append((rel, idx, Item("change", "blob", "%s -> %s(%s)" % (where, acc, base))))
            continue
        # not converted: the todo of the old check, with the reason
        if (rel, idx) in todo_lines:
            continue
        typ = typs.get((rel, idx, m.start()))
        if k is None and typ:
            # a declared type that is no blob kind of the target: the
            # module's own structure (no blob at all), or a kernel one the
            # framework allocates no blob in
            text = other_struct(port, ks, typ, m.group(3), where, code)
            if text is None:
                continue
            todo_lines.add((rel, idx))
            pending.append((rel, idx, Item("todo", "blob", text)))
            continue
        todo_lines.add((rel, idx))
        pending.append((rel, idx, Item("todo", "blob", todo_text(
            port, ks, by_member, m, k, where, why_not, plan))))
    # a blob member reached with `.` (a struct, not a pointer), or through an
    # expression USE_RE does not take apart (f(x)->security, a[i]->security):
    # never rewritten
    seen = {(u[0], u[1], u[2].start(3)) for u in uses}
    other_re = re.compile(r"[\w\])]\s*(\.|->)\s*(%s)\b" % "|".join(members))
    for rel in files:
        for idx, t in enumerate(code[rel].split("\n")):
            m = [m for m in other_re.finditer(t) if (rel, idx, m.start(2)) not in seen]
            m = m[0] if m else None
            if m and (rel, idx) not in todo_lines and m.group(1) == "->":
                todo_lines.add((rel, idx))
                cands = by_member.get(m.group(2), [])
                done = [c for c in cands if c.name in plan]
                pending.append((rel, idx, Item("todo", "blob", (
                    "direct use of ->%s through an expression the port does not type (a "
                    "call, an index, a cast): %s" % (m.group(2), (
                        "the module's %s blob is in %s now: use %s" % (
                            "/".join(c.name for c in done), sizes,
                            " or ".join("%s_%s()" % (ident, c.name) for c in done)))
                        if done else (
                        "the framework allocates this blob (%s in lsm_blob_sizes): reach the "
                        "module's part through an accessor" % "/".join(c.lbs for c in cands))
                        if cands else "the target has no lsm_blob_sizes field for it")))))
            elif m and (rel, idx) not in todo_lines:
                todo_lines.add((rel, idx))
                pending.append((rel, idx, Item("todo", "blob", (
                    "direct use of .%s (the security blob of a structure, not through a "
                    "pointer): the framework allocates the blobs it knows (lsm_blob_sizes); "
                    "reach the module's part through an accessor like %s_cred()" % (
                        m.group(2), ident)))))
    for (rel, idx), text in edits.items():
        files[rel][idx].text = text
    for rel, idx, it in pending:
        files[rel][idx].items.append(it)

    # deletions are marked first (line indexes stay valid) and done at once
    dead, notes = set(), []

    def kill(rel, objs, item=None):
        dead.update(id(o) for o in objs)
        if item:
            notes.append((objs[-1], item))

    # copy hooks: the allocation goes, the pointer comes from the accessor
    for kname, p in plan.items():
        lines = files[p["rel"]]
        acc = "%s_%s" % (ident, kname)
        for h, fn, f, obj, t, ptr in p["copy"]:
            _copy_rewrite(p["rel"], lines, f, obj, ks[kname].member, t, ptr, acc, h, fn,
                          kill, dead)
    # removed hooks: their entries and functions
    for kname, p in plan.items():
        k = ks[kname]
        rel = p["rel"]
        lines = files[rel]
        for h, fn, e, f, what, obj, t in p["remove"]:
            span = 1
            text = lines[e[2]].text
            while text.count("(") > text.count(")") and e[2] + span < len(lines):
                text += lines[e[2] + span].text
                span += 1
            kill(rel, lines[e[2]:e[2] + span], Item("change", "blob", (
                "dropped LSM_HOOK_INIT(%s, %s): %s() is removed (the framework %s the %s "
                "blob)" % (h, fn, fn, "allocates" if what == "alloc" else "frees", k.name))))
            end = f[3] + 1
            if end < len(lines) and not lines[end].text.strip():
                end += 1
            kill(rel, lines[f[2]:end], Item("change", "blob", (
                "removed %s() (%s): it only %s %s->%s; the framework %s %s in %s" % (
                    fn, h, "allocated the blob into" if what == "alloc" else "freed", obj,
                    k.member, "allocates it zeroed before the hook:" if what == "alloc" else
                    "frees it:", "." + k.lbs, sizes))))
    for rel in files:
        keep, carry = [], []
        for l in files[rel]:
            if id(l) in dead:
                carry.extend(l.items)
                carry.extend(it for o, it in notes if o is l)
                continue
            l.items.extend(carry)
            carry = []
            keep.append(l)
        if carry and keep:
            keep[-1].items.extend(carry)
        files[rel][:] = keep
    # declarations, accessors, .blobs
    new = [(kname, p) for kname, p in sorted(plan.items()) if not p["done"]]
    if not new:
        return
    rel = new[0][1]["rel"]
    lines = files[rel]
    code_now = strip_comments(port.text(rel)).split("\n")
    at = insert_point(code_now, [p["T"] for _, p in new])
    block = ["", "static struct lsm_blob_sizes %s __lsm_ro_after_init = {" % sizes]
    block += ["\t.%s = sizeof(struct %s)," % (ks[kname].lbs, p["T"]) for kname, p in new]
    block += ["};"]
    starts = []
    for kname, p in new:
        k = ks[kname]
        block.append("")
        starts.append((len(block), kname, p["T"]))
        block += ["static inline struct %s *%s_%s(const struct %s *%s)" % (
            p["T"], ident, kname, k.struct, k.var), "{",
            "\treturn %s->%s + %s.%s;" % (k.var, k.member, sizes, k.lbs), "}"]
    if at < len(code_now) and code_now[at].strip():
        block.append("")
    newlines = [Line(t) for t in block]
    newlines[1].items.append(Item("change", "blob", "declared %s (%s) for DEFINE_LSM(%s).blobs"
                                  % (sizes, ", ".join(".%s = sizeof(struct %s)" % (
                                      ks[kname].lbs, p["T"]) for kname, p in new), ident)))
    for i, kname, t in starts:
        k = ks[kname]
        newlines[i].items.append(Item("change", "blob", (
            "accessor %s_%s(): struct %s in %s->%s at %s.%s (the framework allocates it "
            "zeroed and frees it)" % (ident, kname, t, k.var, k.member, sizes, k.lbs))))
    lines[at:at] = newlines
    for i, l in enumerate(lines):
        if re.match(r"\s*DEFINE_LSM\s*\(\s*%s\s*\)" % ident, l.text):
            j = i
            while j < len(lines) and not re.match(r"\s*\}\s*;", lines[j].text):
                j += 1
            lines.insert(j, Line("\t.blobs = &%s," % sizes))
            lines[j].items.append(Item("change", "blob", ".blobs = &%s in DEFINE_LSM(%s)"
                                       % (sizes, ident)))
            break


def insert_point(code_lines, types):
    """Line index after the last definition of the blob types (else after the
    last #include)."""
    text = "\n".join(code_lines)
    at = None
    for t in types:
        m = re.search(r"\bstruct\s+%s\s*\{" % t, text)
        if not m:
            continue
        depth, j = 0, m.end() - 1
        while j < len(text):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            if depth == 0:
                break
            j += 1
        end = text.find(";", j)
        ln = text.count("\n", 0, end) + 1
        at = ln if at is None else max(at, ln)
    if at is None:
        at = max([i + 1 for i, l in enumerate(code_lines) if re.match(r"\s*#\s*include", l)]
                 or [0])
    # after a run of one-line struct definitions
    while at < len(code_lines) and re.match(r"struct\s+\w+\s*\{.*\}\s*;\s*$",
                                            code_lines[at]):
        at += 1
    return at


def _copy_rewrite(rel, lines, f, obj, member, t, ptr, acc, hook, fn, kill, dead):
    """In a copy hook: `struct T *p;`/`p = kzalloc(...)`/NULL check/`obj->member = p`
    -> `struct T *p = acc(obj);`."""
    first, last = f[2], f[3]
    code = [strip_comments(l.text) for l in lines[first:last + 1]]
    drop = []
    decl = None
    i = 0
    while i < len(code):
        c = code[i]
        if re.match(r"\s*(const\s+)?struct\s+%s\s*\*\s*%s\s*;\s*$" % (t, ptr), c):
            decl = (first + i, re.sub(r"\s*;\s*$", "", lines[first + i].text))
        elif re.match(r"\s*((const\s+)?struct\s+%s\s*\*\s*)?%s\s*=\s*kzalloc\s*\(" % (t, ptr), c):
            if re.match(r"\s*(const\s+)?struct", c):
                decl = (first + i, lines[first + i].text[:c.index("=")].rstrip())
            else:
                drop.append(first + i)
            while ";" not in code[i]:
                i += 1
                drop.append(first + i)
        elif re.match(r"\s*if\s*\(", c) and re.search(r"\b%s\b" % ptr, c) and (
                "ENOMEM" in c or (i + 1 < len(code) and "ENOMEM" in code[i + 1])):
            drop.append(first + i)
            if "ENOMEM" not in c:
                drop.append(first + i + 1)
                i += 1
        elif re.match(r"\s*%s\s*->\s*%s\s*=\s*%s\s*;\s*$" % (obj, member, ptr), c):
            drop.append(first + i)
        i += 1
    lines[decl[0]].text = "%s = %s(%s);" % (decl[1], acc, obj)
    lines[decl[0]].items.append(Item("change", "blob", (
        "%s() (%s): the framework allocates %s's blob before the hook: the kzalloc of %s, its "
        "-ENOMEM check and the store into %s->%s are gone; %s = %s(%s)" % (
            fn, hook, obj, ptr, obj, member, ptr, acc, obj))))
    kill(rel, [lines[d] for d in sorted(set(drop))])
    # no two blank lines in a row left behind
    alive = [l for l in lines[first:last + 1] if id(l) not in dead]
    for a, b in zip(alive, alive[1:]):
        if not a.text.strip() and not b.text.strip():
            kill(rel, [b])
            break


def other_struct(port, ks, typ, member, where, code):
    """The todo for `x->MEMBER` where x is a struct TYP * that is no blob
    kind of the target, or None when TYP is the module's own structure (its
    field is the module's data, not a security blob)."""
    if any(re.search(r"\bstruct\s+%s\s*\{" % re.escape(typ), c) for c in code.values()):
        return None
    kinds_ = ", ".join("%s (struct %s)" % (k.lbs, k.struct) for k in
                       sorted(ks.values(), key=lambda k: k.name))
    have = None
    d = headers.Target(port.target).defining([typ]).get(typ)
    if d:
        body = re.search(r"^struct\s+%s\s*\{(.*?)^\}" % re.escape(typ),
                         source.text(os.path.join(port.target, "include", d)), re.M | re.S)
        have = bool(body and re.search(r"\b%s\s*;" % re.escape(member), body.group(1)))
    if have is False:
        return ("direct use of %s: struct %s has no member %s on the target (%s); its blob is "
                "gone: keep the state in a blob the framework allocates (%s)" % (
                    where, typ, member, "include/" + d, kinds_))
    return ("direct use of %s: the framework allocates no blob in struct %s on the target (its "
            "struct lsm_blob_sizes has %s): only one module can own this pointer; keep the "
            "module's own allocation, or move the state into one of those blobs" % (
                where, typ, kinds_))


def todo_text(port, ks, by_member, m, k, where, why_not, plan):
    assign = m.group(4)
    cands = [k] if k else by_member.get(m.group(3), [])
    sizes = "%s_blob_sizes" % port.ident
    if not cands:
        return ("%s %s: the target has no lsm_blob_sizes field for this blob: keep the "
                "module's own allocation (only one module may own this pointer)" % (
                    "allocation into" if assign else "direct use of", where))
    lbs = "/".join(c.lbs for c in cands)
    first = cands[0]
    done = [c for c in cands if c.name in plan]
    if not k and done:
        return ("%s %s: the port cannot tell this expression's type (%s); the module's %s "
                "blob is in %s now (the framework allocates and frees it): if it is a %s, "
                "use %s" % ("allocation into" if assign else "direct use of", where, lbs,
                             "/".join(c.name for c in done), sizes,
                             " or a ".join("struct %s" % c.struct for c in done),
                             " or ".join("%s_%s()" % (port.ident, c.name) for c in done)))
    text = ("%s %s: declare struct lsm_blob_sizes %s __lsm_ro_after_init = { .%s = "
            "sizeof(your blob) }, set .blobs = &%s in DEFINE_LSM, and reach your part "
            "through an accessor returning %s + %s.%s (as selinux_cred()/selinux_inode() do); "
            "the framework allocates and frees it" % (
                "allocation into" if assign else "direct use of", where, sizes, first.lbs,
                sizes, where, sizes, first.lbs))
    if not k:
        text += " (%s: the type of %s is not declared where it is used)" % (lbs, where)
    elif why_not.get(k.name):
        text += "; not converted automatically: %s" % why_not[k.name]
    return text


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: python3 -m lsmconv.blobs TREE\n")
        return 2
    for k in sorted(kinds(argv[1]).values(), key=lambda k: k.name):
        print("%s\t%s\tstruct %s\t%s\talloc:%s\tfree:%s" % (
            k.name, k.lbs, k.struct, k.member, ",".join(sorted(k.alloc)),
            ",".join(sorted(k.free))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
