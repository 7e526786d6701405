#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The framework half of the forward series, as tree-level steps.

The converter (convert.sh, the rules of cocci/manifest.tsv) converts the
modules and the call sites of security/security.c.  This tool does the rest
of the 2015 series "LSM: Multiple concurrent LSMs": the framework, which IS
the target API, so most of it is imported from the target tree by name
(never typed here) and the rest is generated from the legacy tree itself.

  forward.py STEP --tree DIR --target TARGET

The steps are the "forward NAME" commands of cocci/manifest.tsv (their
names and order); STEP NAME runs the function step_NAME below (dashes as
underscores).

  split           (v21 1/7) struct security_operations and the legacy
                  prototypes move from include/linux/security.h to
                  include/linux/lsm_hooks.h; users of the struct include
                  <linux/lsm_hooks.h>.
  heads           (v21 5/7) lsm_hooks.h gets the target's hook-list types
                  (imported from TARGET's lsm_hooks.h, where the target has
                  them).
  interim-macros  (v21 4/7) security.c gets call_void_hook()/call_int_hook()
                  over the security_ops vector; the legacy calls spatch could
                  not parse are converted textually.
  switch          (v21 6/7) security.c loses the security_ops machinery and
                  gets the target's (hook heads, security_add_hooks(), list
                  init, calling macros, the loop wrappers); commoncap.c
                  registers capability again; the stacking Kconfig symbol of
                  the rewind goes.
  retire          (v21 7/7) security/capability.c and the legacy struct go.

DIR is edited in place (nothing is committed).  TARGET is only read.  One
line per action on stdout: KIND<TAB>path:line<TAB>message, KIND one of
changed, imported, todo (line 0: the whole file).  Exit 0 (also with
todos), 1 when the input is not what the step expects (nothing written), 2
on usage/setup errors.  Every step
is idempotent.  Hook names come from TARGET's lsm_hook_defs.h
(lsmconv.hooks) and lsmconv's special.tsv; the names typed here are
the framework's own (security_hook_heads, security_add_hooks, ...).
"""
import difflib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lsmconv import hooks as hookmod, legacy, manifest as manifestmod, special as specialmod  # noqa: E402
from lsmconv.kwrap import wrap_call as wrap  # noqa: E402
from lsmconv.source import strip_comments  # noqa: E402

PROG = "forward.py"

SEC_H = "include/linux/security.h"
HOOKS_H = "include/linux/lsm_hooks.h"
SEC_C = "security/security.c"
CAP_C = "security/capability.c"
COMMONCAP = "security/commoncap.c"
MAKEFILE = "security/Makefile"
LEGACY_STRUCT = "security_operations"
LEGACY_PTR = "security_ops"

# The names of the stacked framework (the target API).  An insert hunk of the
# target that mentions one of them is framework code and is imported.
FRAMEWORK = ("security_list_options", "security_hook_heads", "security_hook_list",
             "LSM_HOOK_INIT", "security_add_hooks", "security_delete_hooks",
             "DEFINE_LSM")


class InputError(Exception):
    """The tree is not what the step expects (exit 1)."""

    def __init__(self, path, line, msg):
        super().__init__("%s:%s: %s" % (path, line, msg))


def die(msg, code=2):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(code)


class Tree:
    """Pending edits of one step: read through, written at the end."""

    def __init__(self, root):
        self.root = root
        self.files = {}        # rel -> list of lines (current state)
        self.orig = {}         # rel -> original text
        self.deleted = set()
        self.report = []

    def path(self, rel):
        return os.path.join(self.root, rel)

    def exists(self, rel):
        return rel not in self.deleted and (rel in self.files or os.path.isfile(self.path(rel)))

    def lines(self, rel):
        if rel not in self.files:
            try:
                with open(self.path(rel), encoding="utf-8", errors="surrogateescape") as f:
                    text = f.read()
            except OSError as e:
                raise InputError(rel, 0, "cannot read: %s" % e.strerror)
            self.orig[rel] = text
            self.files[rel] = text.split("\n")
        return self.files[rel]

    def set(self, rel, lines):
        self.files[rel] = lines

    def delete(self, rel):
        self.deleted.add(rel)

    def say(self, kind, rel, line, msg):
        self.report.append("%s\t%s:%s\t%s" % (kind, rel, line, msg))

    def commit(self):
        """temp + rename, only after every edit of the step succeeded."""
        todo = []
        for rel, lines in self.files.items():
            if rel in self.deleted:
                continue
            text = "\n".join(lines)
            if text != self.orig.get(rel):
                todo.append((rel, text))
        tmps = []
        try:
            for rel, text in todo:
                tmp = "%s.forward-tmp.%d" % (self.path(rel), os.getpid())
                with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(text)
                st = os.stat(self.path(rel)) if os.path.exists(self.path(rel)) else None
                if st:
                    os.chmod(tmp, st.st_mode & 0o7777)
                tmps.append((tmp, self.path(rel)))
        except OSError as e:
            for tmp, _ in tmps:
                os.unlink(tmp)
            die("cannot write %s: %s" % (e.filename, e.strerror))
        for tmp, dst in tmps:
            os.replace(tmp, dst)
        for rel in sorted(self.deleted):
            if os.path.exists(self.path(rel)):
                os.unlink(self.path(rel))


# ------------------------------------------------------------ text helpers
def squeeze(lines):
    """Collapse runs of blank lines to one (only used on regions we edit)."""
    out = []
    for l in lines:
        if l.strip() == "" and out and out[-1].strip() == "":
            continue
        out.append(l)
    return out


def squeeze_at(lines, i):
    """Remove blank lines at i while the line above is blank too."""
    while 0 < i < len(lines) and lines[i].strip() == "" and lines[i - 1].strip() == "":
        del lines[i]


def comment_start(lines, i):
    """First line of a /* ... */ comment that ends right above line i
    (no blank line between), else None."""
    j = i - 1
    if j < 0 or not lines[j].rstrip().endswith("*/"):
        return None
    while j >= 0 and "/*" not in lines[j]:
        j -= 1
    return j if j >= 0 else None


PP_OPEN = re.compile(r"\s*#\s*if(n?def)?\b")
PP_END = re.compile(r"\s*#\s*endif\b")
PP_ELSE = re.compile(r"\s*#\s*(else|elif)\b")


def enclosing_if(lines, i):
    """(open, endif) line indices of the innermost #if block around line i."""
    depth = 0
    o = None
    for j in range(i - 1, -1, -1):
        if PP_END.match(lines[j]):
            depth += 1
        elif PP_OPEN.match(lines[j]):
            if depth == 0:
                o = j
                break
            depth -= 1
    if o is None:
        return None
    e = group_end(lines, o)
    return None if e is None else (o, e)


def group_end(lines, o):
    """Index of the #endif matching the #if at line o."""
    depth = 0
    for j in range(o + 1, len(lines)):
        if PP_OPEN.match(lines[j]):
            depth += 1
        elif PP_END.match(lines[j]):
            if depth == 0:
                return j
            depth -= 1
    return None


def functions(lines):
    """Top-level function definitions (kernel style: signature at column 0,
    '{' and '}' alone at column 0): name -> (first, last) line indices."""
    out = {}
    i = 0
    while i < len(lines):
        l = lines[i]
        if re.match(r"[A-Za-z_]", l) and "(" in l and not l.rstrip().endswith(";"):
            j = i
            while j < len(lines) and lines[j] != "{" and not lines[j].rstrip().endswith(";") \
                    and lines[j].strip() != "" and j - i < 12:
                j += 1
            if j < len(lines) and lines[j] == "{":
                k = j + 1
                while k < len(lines) and lines[k] != "}":
                    k += 1
                m = re.match(r"[^(]*?(\w+)\s*\(", l)
                if m and k < len(lines):
                    out.setdefault(m.group(1), (i, k))
                    i = k + 1
                    continue
        i += 1
    return out


def variables(lines, pred):
    """Top-level variable definitions 'T name = ...;' / 'T name;' whose
    first line satisfies pred: name -> (first, last)."""
    out = {}
    for i, l in enumerate(lines):
        if not re.match(r"(static\s+|extern\s+)?(const\s+)?(struct\s+\w+|\w+)[\s*]+\w+", l) or \
                "(" in l.split("=")[0] or l.startswith("extern") or not pred(l):
            continue
        m = re.match(r"[^=;\[]*?(\w+)\s*(\[[^\]]*\])?\s*(__\w+\s*)?(=|;)", l)
        if not m:
            continue
        end = i
        if l.rstrip().endswith("{"):
            while end < len(lines) and not lines[end].startswith("};"):
                end += 1
        out[m.group(1)] = (i, end)
    return out


def find_call(text, start):
    """Index after the ')' matching the '(' at text[start - 1]."""
    depth, j = 1, start
    while depth and j < len(text):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
        j += 1
    return j


# ----------------------------------------------------------------- tables
def load_hooks(target):
    return hookmod.load(target)


def load_special():
    try:
        return specialmod.load()
    except specialmod.TableError as e:
        die(str(e))


def target_lines(target, rel):
    try:
        with open(os.path.join(target, rel), encoding="utf-8", errors="surrogateescape") as f:
            return f.read().split("\n")
    except OSError as e:
        die("target: cannot read %s: %s" % (os.path.join(target, rel), e.strerror))


# ------------------------------------------------------- import by content
def import_hunks(t, rel, tgt_rel, tgt, names, what):
    """Insert every run of TARGET lines that the tree lacks (difflib
    alignment of the whole file) and that mentions one of NAMES, at the
    place the alignment gives: where the target has it relative to the
    neighbouring text.  Returns the number of lines imported."""
    cur = t.lines(rel)
    sm = difflib.SequenceMatcher(None, cur, tgt, autojunk=False)
    pat = re.compile(r"\b(%s)\b" % "|".join(re.escape(n) for n in names))
    ops = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op not in ("insert", "replace"):
            continue
        chunk = tgt[j1:j2]
        found = sorted(set(m.group(1) for l in chunk for m in pat.finditer(l)))
        ops.append([op, i1, i2, j1, j2, found, bool(found)])
    # a run without a framework name next to one with (only blank target
    # lines between them) belongs to it: an '#ifdef' the alignment cut off
    changed = True
    while changed:
        changed = False
        for k, o in enumerate(ops):
            if o[6]:
                continue
            for n in (k - 1, k + 1):
                if 0 <= n < len(ops) and ops[n][6]:
                    lo, hi = (ops[n][4], o[3]) if n < k else (o[4], ops[n][3])
                    if all(not l.strip() for l in tgt[lo:hi]):
                        o[6] = changed = True
                        break
    edits = []
    for op, i1, i2, j1, j2, found, take in ops:
        if not take:
            continue
        if op == "replace" and any(l.strip() for l in cur[i1:i2]):
            t.say("todo", rel, i1 + 1, "%s: target lines %d-%d (%s) replace tree lines "
                  "that are not blank; not imported, compare with %s by hand"
                  % (what, j1 + 1, j2, ", ".join(found) or "next to framework code", tgt_rel))
            continue
        edits.append((i1, i2, j1, j2, found))
    total = 0
    for i1, i2, j1, j2, found in reversed(edits):
        cur[i1:i2] = tgt[j1:j2]
        total += j2 - j1
    # report in file order, with the line numbers of the result
    shift = 0
    for i1, i2, j1, j2, found in edits:
        t.say("imported", rel, i1 + shift + 1, "%s: %d lines (%s) from %s:%d"
              % (what, j2 - j1, ", ".join(found) or "next to framework code", tgt_rel, j1 + 1))
        shift += (j2 - j1) - (i2 - i1)
    t.set(rel, cur)
    return total


# ------------------------------------------------------------------ split
def legacy_block(lines, rel):
    """(open, endif) of the #if block that holds struct security_operations
    in a header, or None when the struct is not there."""
    for i, l in enumerate(lines):
        if re.match(r"struct\s+%s\s*\{" % LEGACY_STRUCT, l):
            blk = enclosing_if(lines, i)
            if blk is None:
                raise InputError(rel, i + 1, "struct %s is not inside an #if block "
                                 "(expected the block the rewind appended)" % LEGACY_STRUCT)
            return blk
    return None


def defined_in(t, rels):
    """Names of the top-level functions defined in the tree's files RELS."""
    names = set()
    for rel in rels:
        if t.exists(rel):
            names.update(functions(t.lines(rel)))
    return names


def split_groups(lines, o, e):
    """Split the body of the block (o, e) into nested #if groups and the
    rest: list of (start, end, is_group)."""
    out, i = [], o + 1
    while i < e:
        if PP_OPEN.match(lines[i]):
            end = group_end(lines, i)
            out.append((i, end, True))
            i = end + 1
        elif re.match(r"(struct|union)\s+\w+\s*\{", lines[i]):
            end = i
            while end < e and not lines[end].startswith("}"):
                end += 1
            out.append((i, end, False))
            i = end + 1
        else:
            out.append((i, i, False))
            i += 1
    return out


def include_users(t):
    """Every file under security/ that uses struct security_operations gets
    <linux/lsm_hooks.h> (directly or through a local header)."""
    for dirpath, _dirs, files in os.walk(t.path("security")):
        for fn in sorted(files):
            if not fn.endswith((".c", ".h")):
                continue
            rel = os.path.relpath(os.path.join(dirpath, fn), t.root)
            lines = t.lines(rel)
            text = "\n".join(lines)
            if not re.search(r"\bstruct\s+%s\b" % LEGACY_STRUCT, text):
                continue
            if has_hooks_include(t, rel, text):
                continue
            at = None
            for i, l in enumerate(lines):
                if re.match(r"#\s*include\s+<linux/security\.h>", l):
                    at = i + 1
                    break
            if at is None:
                for i, l in enumerate(lines):
                    if re.match(r"#\s*include\s+<", l):
                        at = i + 1
            if at is None:
                t.say("todo", rel, 1, "uses struct %s but has no #include to put "
                      "<linux/lsm_hooks.h> after: add it by hand" % LEGACY_STRUCT)
                continue
            lines.insert(at, "#include <linux/lsm_hooks.h>")
            t.say("changed", rel, at + 1, "#include <linux/lsm_hooks.h> (uses struct %s)"
                  % LEGACY_STRUCT)


def has_hooks_include(t, rel, text):
    if re.search(r"#\s*include\s+<linux/lsm_hooks\.h>", text):
        return True
    for m in re.finditer(r'#\s*include\s+"([^"]+)"', text):
        inc = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1)))
        if os.path.isfile(t.path(inc)) and \
                re.search(r"#\s*include\s+<linux/lsm_hooks\.h>", "\n".join(t.lines(inc))):
            return True
    return False


def step_split(t, target, hooks, special):
    sh = t.lines(SEC_H)
    hh = t.lines(HOOKS_H)
    blk = legacy_block(sh, SEC_H)
    if blk is None:
        if legacy_block(hh, HOOKS_H) is None:
            raise InputError(SEC_H, 1, "no struct %s (neither here nor in %s): not a legacy "
                             "tree" % (LEGACY_STRUCT, HOOKS_H))
        include_users(t)
        return
    if legacy_block(hh, HOOKS_H) is not None:
        raise InputError(HOOKS_H, 1, "struct %s is defined here and in %s" % (LEGACY_STRUCT, SEC_H))
    o, e = blk
    fw = defined_in(t, (SEC_C, CAP_C))
    move, keep = [], []
    for s, end, is_group in split_groups(sh, o, e):
        chunk = sh[s:end + 1]
        if is_group:
            body = "\n".join(chunk)
            declared = set(re.findall(r"(\w+)\s*\(", body))
            if LEGACY_STRUCT in body or declared & fw:
                move += chunk
            else:
                keep += chunk
        else:
            move += chunk
    protos = [re.search(r"(\w+)\s*\(", l).group(1) for l in move
              if l.startswith("extern") and "(" in l]
    head, tail = sh[:o], sh[e + 1:]
    if any(l.strip() for l in keep):
        new = head + [sh[o]] + squeeze([""] + keep + [""]) + [sh[e]] + tail
        where = o + 1
    else:
        new = head + tail
        where = len(head) + 1
        squeeze_at(new, len(head))
    t.set(SEC_H, new)
    while move and not move[0].strip():
        move.pop(0)
    while move and not move[-1].strip():
        move.pop()
    t.say("changed", SEC_H, where, "struct %s and %d legacy prototypes (%s) moved to %s "
          "(%d lines)" % (LEGACY_STRUCT, len(protos), ", ".join(protos), HOOKS_H, len(move)))
    if keep:
        t.say("changed", SEC_H, o + 1, "kept here: %d lines in the same #if block that "
              "declare no framework function" % len([l for l in keep if l.strip()]))
    # lsm_hooks.h: before its include guard's #endif
    last = max(i for i, l in enumerate(hh) if PP_END.match(l))
    block = [sh[o], ""] + move + ["", sh[e]]
    at = last
    while at > 0 and not hh[at - 1].strip():
        at -= 1
    hh[at:last] = [""] + block + [""]
    t.say("changed", HOOKS_H, at + 2, "struct %s and the legacy prototypes, from %s"
          % (LEGACY_STRUCT, SEC_H))
    include_users(t)


# ------------------------------------------------------------------ heads
def step_heads(t, target, hooks, special):
    hh = t.lines(HOOKS_H)
    if legacy_block(hh, HOOKS_H) is None and legacy_block(t.lines(SEC_H), SEC_H) is not None:
        raise InputError(SEC_H, 1, "struct %s is still here: run 'split' first" % LEGACY_STRUCT)
    tgt = target_lines(target, HOOKS_H)
    import_hunks(t, HOOKS_H, HOOKS_H, tgt, FRAMEWORK, "hook-list types")
    text = "\n".join(t.lines(HOOKS_H))
    for name in FRAMEWORK:
        if re.search(r"\b%s\b" % name, "\n".join(tgt)) and not re.search(r"\b%s\b" % name, text):
            t.say("todo", HOOKS_H, 1, "%s is in the target's %s but could not be imported"
                  % (name, HOOKS_H))


# --------------------------------------------------------- interim-macros
MACRO_DEF = re.compile(r"\s*#\s*define\s+call_(void|int)_hook\b")


def macro_span(lines):
    """(first, last) line of the call_*_hook #defines (with continuations)."""
    first = last = None
    for i, l in enumerate(lines):
        if MACRO_DEF.match(l):
            if first is None:
                first = i
            j = i
            while j < len(lines) and lines[j].rstrip().endswith("\\"):
                j += 1
            last = j
    return None if first is None else (first, last)


def interim_defs():
    return ["#define call_void_hook(FUNC, ...)\t%s->FUNC(__VA_ARGS__)" % LEGACY_PTR,
            "#define call_int_hook(FUNC, IRC, ...)\t%s->FUNC(__VA_ARGS__)" % LEGACY_PTR]


def convert_left_calls(t, hooks, special):
    """security_ops->HOOK(args) -> call_*_hook(), textually, for the hooks
    that are not of class loop (those wait for 'switch')."""
    lines = t.lines(SEC_C)
    text = "\n".join(lines)
    pat = re.compile(r"\b%s->(\w+)\(" % LEGACY_PTR)
    found = []
    # the legacy struct, for the IRCs that name a hook parameter
    sigs = legacy.sigs_of_text("\n".join("\n".join(t.lines(r)) for r in (HOOKS_H, SEC_H)
                                         if t.exists(r)))
    for m in pat.finditer(text):
        hook = m.group(1)
        sp = special.get(hook)
        if hook not in hooks or (sp and sp.cls == "loop"):
            continue
        end = find_call(text, m.end())
        args = text[m.end():end - 1]
        args = re.sub(r"\s*\n\s*", " ", args).strip()
        why = None
        if hooks[hook].ret == "void":
            head, inner = "call_void_hook", hook + (", " + args if args else "")
        else:
            irc, why = specialmod.irc_of(hooks[hook], special, args, sigs)
            head, inner = "call_int_hook", "%s, %s%s" % (hook, irc, ", " + args if args else "")
        found.append((m.start(), end, head, inner, hook, why))
    if not found:
        return
    out, pos, delta, where = [], 0, 0, []
    for s, e, head, inner, hook, why in found:
        ls = text.rfind("\n", 0, s) + 1
        le = text.find("\n", e)
        le = len(text) if le < 0 else le
        prefix, tail = text[ls:s], text[e:le]
        line = text.count("\n", 0, s) + 1 + delta
        if "\n" not in text[s:e] and LEGACY_PTR + "->" not in prefix + tail and ls >= pos:
            # kernel style: the statement rewrapped at 80 columns
            indent = re.match(r"\s*", prefix).group(0)
            new = "\n".join(wrap(prefix[len(indent):] + head, inner, tail, indent))
            out.append(text[pos:ls])
            out.append(new)
            delta += new.count("\n") - text[ls:le].count("\n")
            pos = le
        else:
            new = "%s(%s)" % (head, inner)
            out.append(text[pos:s])
            out.append(new)
            delta += new.count("\n") - text[s:e].count("\n")
            pos = e
        where.append((line, head, hook, why))
    out.append(text[pos:])
    t.set(SEC_C, "".join(out).split("\n"))
    for line, head, hook, why in where:
        sp = special.get(hook)
        if why:
            t.say("todo", SEC_C, line, "%s->%s() converted textually to %s() with the hook's "
                  "default IRC; the target starts from `%s` (%s), but %s: check by hand"
                  % (LEGACY_PTR, hook, head, sp.irc, sp.why, why))
        elif sp and sp.cls in ("capfall", "secid0", "review"):
            t.say("todo", SEC_C, line, "%s->%s() converted textually to %s(); special.tsv "
                  "class %s: %s" % (LEGACY_PTR, hook, head, sp.cls, sp.why))
        else:
            t.say("changed", SEC_C, line, "%s->%s() -> %s() (textually: spatch cannot parse "
                  "the function)" % (LEGACY_PTR, hook, head))


def step_interim_macros(t, target, hooks, special):
    lines = t.lines(SEC_C)
    text = "\n".join(lines)
    if not re.search(r"\bcall_(int|void)_hook\(", text.replace("#define call_", "")):
        raise InputError(SEC_C, 1, "no call_int_hook()/call_void_hook() calls: run "
                         "cocci/30-hook-calls.cocci (convert.sh --rules 30) first")
    if not re.search(r"\b%s\b" % LEGACY_PTR, text):
        raise InputError(SEC_C, 1, "no %s vector: not the legacy framework" % LEGACY_PTR)
    lines = t.lines(SEC_C)
    if macro_span(lines) is None:
        add_interim_macros(t, target, lines)
    convert_left_calls(t, hooks, special)


def add_interim_macros(t, target, lines):
    # the target's macro block: its comment and the #defines
    tgt = target_lines(target, SEC_C)
    span = macro_span(tgt)
    if span is None:
        die("target: no call_*_hook #defines in %s" % os.path.join(target, SEC_C))
    c = span[0]
    k = c - 1
    while k >= 0 and not tgt[k].strip():
        k -= 1
    cstart = comment_start(tgt, k + 1) if k >= 0 else None
    # align: where the target has the block, relative to the neighbouring text
    bstart = cstart if cstart is not None else c
    p = bstart - 1
    while p >= 0 and not tgt[p].strip():
        p -= 1
    sm = difflib.SequenceMatcher(None, lines, tgt, autojunk=False)
    at = None
    for a, b, size in sm.get_matching_blocks():
        if b <= p < b + size:
            at = a + (p - b) + 1
    if at is None:
        # before the first function using the macros (60-calling-macros)
        fns = functions(lines)
        users = [s for n, (s, e) in fns.items()
                 if re.search(r"\bcall_(int|void)_hook\(", "\n".join(lines[s:e + 1]))]
        at = min(users) if users else len(lines)
        cs = comment_start(lines, at)
        at = cs if cs is not None else at
    block = []
    if cstart is not None:
        block = tgt[cstart:k + 1] + [""]
    block += interim_defs()
    # keep one blank line on both sides
    ins = ([""] if at > 0 and lines[at - 1].strip() else []) + block + \
        ([""] if at < len(lines) and lines[at].strip() else [])
    lines[at:at] = ins
    squeeze_at(lines, at + len(ins))
    t.set(SEC_C, lines)
    first = at + ins.index(block[0]) + 1
    if cstart is not None:
        t.say("imported", SEC_C, first, "comment of the calling macros: %d lines from %s:%d"
              % (k + 1 - cstart, SEC_C, cstart + 1))
    t.say("changed", SEC_C, first + len(block) - 2, "interim call_void_hook()/call_int_hook() "
          "over %s (the IRC is the legacy default stub's return value)" % LEGACY_PTR)


# ------------------------------------------------------------------ switch
def legacy_protos(t):
    """Function names of the legacy prototypes (moved to lsm_hooks.h by
    split): the legacy registration API."""
    hh = t.lines(HOOKS_H)
    blk = legacy_block(hh, HOOKS_H)
    if blk is None:
        return None
    o, e = blk
    names = []
    for l in hh[o:e + 1]:
        m = re.match(r"extern\s+[^(]*?(\w+)\s*\(", l)
        if m:
            names.append(m.group(1))
    return names


def remove_span(lines, s, e):
    """Delete lines s..e with a comment right above, an #ifdef/#endif pair
    around them left empty, and a doubled blank line."""
    cs = comment_start(lines, s)
    if cs is not None:
        s = cs
    if s > 0 and PP_OPEN.match(lines[s - 1]) and e + 1 < len(lines) and PP_END.match(lines[e + 1]):
        s, e = s - 1, e + 1
    del lines[s:e + 1]
    squeeze_at(lines, s)
    return s


def remove_legacy(t, names):
    """Remove the legacy vector machinery from security.c: the definitions
    of the legacy API functions, the variables of the legacy type, the
    statements calling the legacy API.  Returns the text removed."""
    lines = t.lines(SEC_C)
    removed = []
    while True:
        fns = functions(lines)
        vars_ = variables(lines, lambda l: re.search(r"\bstruct\s+%s\b" % LEGACY_STRUCT, l))
        hit = None
        for n in names:
            if n in fns:
                hit = ("function", n, fns[n])
                break
        if hit is None and vars_:
            n = sorted(vars_, key=lambda k: -vars_[k][0])[0]
            hit = ("variable", n, vars_[n])
        if hit is None:
            break
        kind, n, (s, e) = hit
        removed.append("\n".join(lines[s:e + 1]))
        at = remove_span(lines, s, e)
        t.say("changed", SEC_C, at + 1, "removed the legacy %s %s()" % (kind, n)
              if kind == "function" else "removed the legacy %s %s" % (kind, n))
    # statements calling the legacy API inside other functions
    i = 0
    while i < len(lines):
        m = re.match(r"\s+(\w+)\(.*\);\s*$", lines[i])
        if m and m.group(1) in names:
            removed.append(lines[i])
            t.say("changed", SEC_C, i + 1, "removed the call %s" % lines[i].strip())
            del lines[i]
            continue
        i += 1
    t.set(SEC_C, lines)
    return "\n".join(removed)


def remove_orphans(t, removed, tgt):
    """Static definitions that only the removed code used go too (not those
    the target's framework code uses: it is imported next)."""
    lines = t.lines(SEC_C)
    ttext = "\n".join(tgt)
    while True:
        text = "\n".join(lines)
        cands = {}
        for n, span in functions(lines).items():
            if lines[span[0]].startswith("static"):
                cands[n] = span
        cands.update(variables(lines, lambda l: l.startswith("static")))
        hit = None
        for n, (s, e) in cands.items():
            if not re.search(r"\b%s\b" % re.escape(n), removed) or \
                    re.search(r"\b%s\b" % re.escape(n), ttext):
                continue
            own = "\n".join(lines[s:e + 1])
            uses = len(re.findall(r"\b%s\b" % re.escape(n), text)) - \
                len(re.findall(r"\b%s\b" % re.escape(n), own))
            if uses == 0:
                hit = (n, s, e)
                break
        if hit is None:
            break
        n, s, e = hit
        removed += "\n" + "\n".join(lines[s:e + 1])
        at = remove_span(lines, s, e)
        t.say("changed", SEC_C, at + 1, "removed %s (static, only the legacy code used it)" % n)
    t.set(SEC_C, lines)


def replace_functions(t, tgt, hooks, special):
    """The wrappers of class-loop hooks: the target's function bodies."""
    lines = t.lines(SEC_C)
    tfns = functions(tgt)
    loops = [h for h, sp in special.items() if sp.cls == "loop" and h in hooks]
    done = 0
    for hook in loops:
        for name, (s, e) in sorted(tfns.items(), key=lambda kv: kv[1][0]):
            body = "\n".join(tgt[s:e + 1])
            if not re.search(r"security_hook_heads\.%s\b" % hook, body):
                continue
            fns = functions(lines)
            if name not in fns:
                t.say("todo", SEC_C, 1, "%s(): the target's wrapper of hook %s has no "
                      "counterpart here; copy it from the target by hand" % (name, hook))
                continue
            a, b = fns[name]
            if lines[a:b + 1] == tgt[s:e + 1]:
                continue
            lines[a:b + 1] = tgt[s:e + 1]
            done += 1
            t.say("imported", SEC_C, a + 1, "%s(): the target's wrapper of hook %s (%d lines "
                  "from %s:%d; special.tsv class loop)" % (name, hook, e - s + 1, SEC_C, s + 1))
    t.set(SEC_C, lines)
    return done


def switch_macros(t, tgt):
    lines = t.lines(SEC_C)
    span = macro_span(lines)
    tspan = macro_span(tgt)
    if span is None:
        t.say("todo", SEC_C, 1, "no calling macros here: 60-calling-macros.cocci copies "
              "the target's")
        return
    new = tgt[tspan[0]:tspan[1] + 1]
    if lines[span[0]:span[1] + 1] == new:
        return
    lines[span[0]:span[1] + 1] = new
    t.set(SEC_C, lines)
    t.say("imported", SEC_C, span[0] + 1, "the target's call_void_hook()/call_int_hook() "
          "(%d lines from %s:%d) replace the interim ones" % (len(new), SEC_C, tspan[0] + 1))


def stray_symbols(t, target):
    """Kconfig symbols of security/ that the tree defines, the target does
    not, and the tree's framework files test: the rewind's stacking hacks."""
    out = []
    fw = "\n".join(t.lines(SEC_C) + t.lines(SEC_H))
    for dirpath, _dirs, files in os.walk(t.path("security")):
        if "Kconfig" not in files:
            continue
        rel = os.path.relpath(os.path.join(dirpath, "Kconfig"), t.root)
        tk = os.path.join(target, rel)
        tsyms = set()
        if os.path.isfile(tk):
            tsyms = set(re.findall(r"^config\s+(\w+)", open(tk, encoding="utf-8").read(), re.M))
        for i, l in enumerate(t.lines(rel)):
            m = re.match(r"config\s+(\w+)", l)
            if m and m.group(1) not in tsyms and re.search(r"\bCONFIG_%s\b" % m.group(1), fw):
                out.append((rel, m.group(1)))
    return out


def drop_kconfig(t, rel, sym):
    lines = t.lines(rel)
    for i, l in enumerate(lines):
        if re.match(r"config\s+%s\s*$" % sym, l):
            e = i + 1
            while e < len(lines) and not re.match(r"(config|menuconfig|endmenu|choice|endchoice|"
                                                  r"if|endif|source|menu)\b", lines[e]):
                e += 1
            s = i
            while s > 0 and not lines[s - 1].strip():
                s -= 1
            # one blank line before the next entry; the file's final newline
            lines[s:e] = [""]
            t.set(rel, lines)
            t.say("changed", rel, s + 1, "removed config %s (the rewind's; the target has "
                  "no such symbol)" % sym)
            return


def drop_ifdef_groups(t, rel, sym):
    """Remove '#ifdef CONFIG_SYM' groups (declarations only) from a header,
    and an enclosing #if block they leave empty."""
    lines = t.lines(rel)
    i = 0
    while i < len(lines):
        if re.match(r"\s*#\s*ifdef\s+CONFIG_%s\b" % sym, lines[i]):
            e = group_end(lines, i)
            outer = enclosing_if(lines, i)
            del lines[i:e + 1]
            t.say("changed", rel, i + 1, "removed the #ifdef CONFIG_%s declarations (%d lines)"
                  % (sym, e - i + 1))
            squeeze_at(lines, i)
            if outer is not None:
                o = outer[0]
                oe = group_end(lines, o)
                if oe is not None and not any(l.strip() for l in lines[o + 1:oe]):
                    del lines[o:oe + 1]
                    squeeze_at(lines, o)
                    t.say("changed", rel, o + 1, "removed the #if block left empty")
                    i = o
            continue
        i += 1
    t.set(rel, lines)


def cap_legacy_pairs(t):
    """(hook, cap_fn) pairs capability.c installs that are not its own
    stubs: the hooks capability implements."""
    if not t.exists(CAP_C):
        return None
    lines = t.lines(CAP_C)
    own = set(functions(lines))
    pairs = []
    for l in lines:
        if l.lstrip().startswith("#"):
            continue
        m = re.search(r"set_to_cap_if_null\(\s*\w+\s*,\s*(\w+)\s*,\s*(\w+)\s*\)", l)
        if m and m.group(2) not in own:
            pairs.append((m.group(1), m.group(2)))
    return pairs


def step_switch(t, target, hooks, special):
    names = legacy_protos(t)
    if names is None:
        raise InputError(HOOKS_H, 1, "no struct %s here: run 'split' first (or the tree is "
                         "already retired)" % LEGACY_STRUCT)
    if not re.search(r"\bsecurity_hook_heads\b", "\n".join(t.lines(HOOKS_H))):
        raise InputError(HOOKS_H, 1, "no struct security_hook_heads: run 'heads' first")
    sc = t.lines(SEC_C)
    if macro_span(sc) is None and re.search(r"\b%s->" % LEGACY_PTR, "\n".join(sc)):
        raise InputError(SEC_C, 1, "no calling macros: run 'interim-macros' first")
    tgt = target_lines(target, SEC_C)
    removed = remove_legacy(t, names)
    remove_orphans(t, removed, tgt)
    n_fn = replace_functions(t, tgt, hooks, special)
    switch_macros(t, tgt)
    n_imp = import_hunks(t, SEC_C, SEC_C, tgt, FRAMEWORK, "framework")
    lines = t.lines(SEC_C)
    for i, l in enumerate(lines):
        if re.search(r"\b(%s|%s|%s)\b" % (LEGACY_PTR, LEGACY_STRUCT, "|".join(names)), l):
            t.say("todo", SEC_C, i + 1, "legacy API left: %s" % l.strip())
    if n_imp or n_fn:
        t.say("imported", SEC_C, 0, "total: %d framework lines, %d loop wrappers from the target"
              % (n_imp, n_fn))
    # capability registers its own hooks again
    tc = target_lines(target, COMMONCAP)
    n = import_hunks(t, COMMONCAP, COMMONCAP, tc, FRAMEWORK, "capability registration")
    text = "\n".join(t.lines(COMMONCAP))
    entries = re.findall(r"LSM_HOOK_INIT\(\s*(\w+)\s*,\s*(\w+)\s*\)", text)
    legacy = cap_legacy_pairs(t)
    if legacy is None:
        t.say("todo", COMMONCAP, 1, "%s is gone: cannot check capability_hooks against the "
              "legacy defaults" % CAP_C)
    elif n:
        if sorted(entries) == sorted(legacy):
            t.say("imported", COMMONCAP, 0, "capability_hooks: %d entries, the same (hook, "
                  "function) pairs as %s installs (security_fixup_ops)" % (len(entries), CAP_C))
        else:
            a, b = set(entries), set(legacy)
            for h, f in sorted(a - b):
                t.say("todo", COMMONCAP, 0, "LSM_HOOK_INIT(%s, %s) is not a default of %s"
                      % (h, f, CAP_C))
            for h, f in sorted(b - a):
                t.say("todo", COMMONCAP, 0, "%s installs %s for %s; capability_hooks lacks it"
                      % (CAP_C, f, h))
    # the rewind's stacking Kconfig symbol and its declarations
    for rel, sym in stray_symbols(t, target):
        drop_kconfig(t, rel, sym)
        drop_ifdef_groups(t, SEC_H, sym)


# ------------------------------------------------------------------ retire
def step_retire(t, target, hooks, special):
    names = legacy_protos(t) or []
    pat = re.compile(r"\bstruct\s+%s\b" % LEGACY_STRUCT)
    for dirpath, _dirs, files in os.walk(t.path("security")):
        for fn in sorted(files):
            if not fn.endswith((".c", ".h")):
                continue
            rel = os.path.relpath(os.path.join(dirpath, fn), t.root)
            if rel == CAP_C:
                continue
            code = strip_comments("\n".join(t.lines(rel))).split("\n")
            for i, l in enumerate(code):
                if pat.search(l) or (names and re.search(r"\b(%s)\s*\(" % "|".join(names), l)):
                    raise InputError(rel, i + 1, "still uses the legacy API (%s): convert the "
                                     "modules (convert.sh) and run 'switch' first" % l.strip())
    if t.exists(CAP_C):
        t.delete(CAP_C)
        t.say("changed", CAP_C, 0, "deleted")
    mk = t.lines(MAKEFILE)
    for i, l in enumerate(mk):
        if re.search(r"\bcapability\.o\b", l):
            mk[i] = re.sub(r"[ \t]+capability\.o\b", "", l)
            t.say("changed", MAKEFILE, i + 1, "capability.o removed")
    t.set(MAKEFILE, mk)
    hh = t.lines(HOOKS_H)
    blk = legacy_block(hh, HOOKS_H)
    if blk is None:
        return
    o, e = blk
    body = hh[o + 1:e]
    legacy_only = all(
        not l.strip() or l.lstrip().startswith(("/*", "*", "#")) or re.match(r"struct\s+\w+;", l)
        or l.startswith("extern") or l.startswith("\t") or l.startswith("}")
        or re.match(r"struct\s+%s\s*\{" % LEGACY_STRUCT, l)
        for l in body)
    if not legacy_only:
        raise InputError(HOOKS_H, o + 1, "the #if block of struct %s holds more than the "
                         "legacy declarations" % LEGACY_STRUCT)
    del hh[o:e + 1]
    squeeze_at(hh, o)
    t.set(HOOKS_H, hh)
    t.say("changed", HOOKS_H, o + 1, "removed struct %s and the legacy prototypes (%d lines)"
          % (LEGACY_STRUCT, e - o + 1))


# -------------------------------------------------------------------- main
def steps():
    """The steps, in series order: cocci/manifest.tsv's "forward NAME"."""
    try:
        return manifestmod.load().forward_steps()
    except manifestmod.ManifestError as e:
        die(str(e))


def step_function(step):
    """The function of STEP: step_NAME, dashes as underscores."""
    fn = globals().get("step_" + step.replace("-", "_"))
    if fn is None:
        die("cocci/manifest.tsv names the step '%s', but there is no step_%s here"
            % (step, step.replace("-", "_")))
    return fn


def usage():
    die("usage: %s STEP --tree DIR --target TARGET\n  STEP: %s" % (PROG, " | ".join(steps())))


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        usage()
    step, tree, target = argv[0], None, None
    rest = argv[1:]
    while rest:
        if rest[0] in ("--tree", "--target") and len(rest) >= 2:
            if rest[0] == "--tree":
                tree = rest[1]
            else:
                target = rest[1]
            rest = rest[2:]
        else:
            die("unknown argument '%s'" % rest[0])
    names = steps()
    if step not in names:
        die("unknown step '%s' (one of %s)" % (step, ", ".join(names)))
    if not tree or not target:
        usage()
    for rel in (SEC_H, HOOKS_H, SEC_C):
        if not os.path.isfile(os.path.join(tree, rel)):
            die("not a kernel tree (no %s): %s" % (rel, tree))
    for rel in ("include/linux/lsm_hook_defs.h", HOOKS_H, SEC_C, COMMONCAP):
        if not os.path.isfile(os.path.join(target, rel)):
            die("target is not a stacked kernel tree (no %s): %s" % (rel, target))
    hooks = load_hooks(target)
    special = load_special()
    t = Tree(tree)
    fn = step_function(step)
    try:
        fn(t, target, hooks, special)
    except InputError as e:
        die(str(e), 1)
    t.commit()
    for line in t.report:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
