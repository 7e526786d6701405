#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The framework half of the forward series, as tree-level steps.

The converter (convert.sh, the rules of cocci/manifest.tsv) converts the
modules and the call sites of security/security.c.  This tool does the rest
of the 2015 series "LSM: Multiple concurrent LSMs": the framework, which IS
the target API, so most of it is imported from the target tree by name
(never typed here) and the rest is generated from the legacy tree itself.

  forward.py STEP --tree DIR --target TARGET
  forward.py STEP --tree DIR --own

With --target the framework is imported from TARGET, a stacked tree (the
distro fixed point).  With --own the tree is stacked in its own version:
there is no target, the framework is generated from the tree's own struct
security_operations and defaults (forward/framework.py, lsmconv.hooks,
lsmconv.special.derive, lsmconv.defaults), in v21's (4.2's) form.

The steps are the "forward NAME" commands of cocci/manifest.tsv (their
names and order); STEP NAME runs the function step_NAME below (dashes as
underscores).

  split           (v21 1/7) struct security_operations and the legacy
                  prototypes move from include/linux/security.h to
                  include/linux/lsm_hooks.h (made when the tree has none);
                  users of the struct include <linux/lsm_hooks.h>.
  docs            (v21 2-3/7) the documentation of the hooks follows.
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
item per action on stdout (lsmconv.items, items.jsonl: kind and state
changed, imported or todo; line 0: the whole file; rule "forward STEP").  Exit 0 (also with
todos), 1 when the input is not what the step expects (nothing written), 2
on usage/setup errors.  Every step
is idempotent.  Hook names come from TARGET's lsm_hook_defs.h
(lsmconv.hooks) and lsmconv's special.tsv; the names typed here are
the framework's own (security_hook_heads, security_add_hooks, ...).
"""
import difflib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lsmconv import defaults, hooks as hookmod, items as itemsmod, legacy  # noqa: E402
from lsmconv import manifest as manifestmod  # noqa: E402
from lsmconv import calling_macros, calls as callsmod, cscan, special as specialmod  # noqa: E402
from lsmconv.names import lsm_ident, lsm_name  # noqa: E402
import framework as fw  # noqa: E402
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
        """One item (lsmconv.items): kind and state changed, imported or todo."""
        self.report.append(itemsmod.make(rel, int(line), kind, None, msg, "forward",
                                         state=kind))

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


PP_OPEN = cscan.PP_IF
PP_END = cscan.PP_ENDIF
group_end = cscan.group_end


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


def functions(lines):
    """Top-level function definitions (lsmconv.cscan, the one C scanner):
    name -> (first, last) line indices, the first definition of a name."""
    out = {}
    for f in cscan.functions("\n".join(lines)):
        out.setdefault(f.name, (f.first - 1, f.last - 1))
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
    return cscan.match_paren(text, start - 1)


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
    <linux/lsm_hooks.h> (directly or through a local header): its
    `#include <linux/security.h>` becomes `#include <linux/lsm_hooks.h>`,
    which includes it (v21 1/7), else the include goes after the last one.
    Headers first, so that a file including a local header that gets it
    is left alone."""
    found = []
    for dirpath, _dirs, files in os.walk(t.path("security")):
        for fn in sorted(files):
            if fn.endswith((".c", ".h")):
                found.append(os.path.relpath(os.path.join(dirpath, fn), t.root))
    for rel in sorted(found, key=lambda r: (not r.endswith(".h"), r)):
        lines = t.lines(rel)
        text = "\n".join(lines)
        if not re.search(r"\bstruct\s+%s\b" % LEGACY_STRUCT, text):
            continue
        if has_hooks_include(t, rel, text):
            continue
        for i, l in enumerate(lines):
            if re.match(r"#\s*include\s+<linux/security\.h>", l):
                lines[i] = "#include <linux/lsm_hooks.h>"
                t.say("changed", rel, i + 1, "#include <linux/lsm_hooks.h> instead of "
                      "<linux/security.h> (uses struct %s)" % LEGACY_STRUCT)
                break
        else:
            at = None
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


def struct_span(lines):
    """(first, last) line of the struct security_operations definition."""
    for i, l in enumerate(lines):
        if re.match(r"struct\s+%s\s*\{" % LEGACY_STRUCT, l):
            j = i
            while j < len(lines) and not lines[j].startswith("}"):
                j += 1
            return i, j
    return None


def legacy_only(lines, o, e, fw):
    """True when the #if block (o, e) holds nothing but the legacy
    declarations (the block the rewind appends): defines, forward
    declarations, comments, the struct, prototypes of functions of FW, and
    nested groups."""
    code = strip_comments("\n".join(lines)).split("\n")
    for s, end, is_group in split_groups(lines, o, e):
        if is_group:
            continue
        l = code[s].strip()
        if not l or l.startswith("#") or re.match(r"struct\s+\w+\s*;$", l) or \
                re.match(r"struct\s+%s\s*\{" % LEGACY_STRUCT, l):
            continue
        m = re.match(r"(extern\s+)?[\w\s\*]*?\b(\w+)\s*\(", l)
        if m and m.group(2) in fw:
            continue
        return False
    return True


def outside_users(t, name):
    """True when code (.c, .h, .S) outside security/ and the two LSM
    headers names function NAME (a git tree: git grep; else a walk)."""
    if os.path.isdir(t.path(".git")):
        r = subprocess.run(["git", "-C", t.root, "grep", "-q", "-w", "-e", name, "--",
                            "*.[chS]", ":!security/", ":!" + SEC_H, ":!" + HOOKS_H],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return r.returncode == 0
    pat = re.compile(r"\b%s\b" % re.escape(name))
    for d, dirs, files in os.walk(t.root):
        rel = os.path.relpath(d, t.root)
        if rel == "security" or rel.startswith(".git"):
            dirs[:] = []
            continue
        for f in files:
            r = os.path.normpath(os.path.join(rel, f))
            if r in (SEC_H, HOOKS_H) or not f.endswith((".c", ".h", ".S")):
                continue
            try:
                with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                    if pat.search(fh.read()):
                        return True
            except OSError:
                pass
    return False


def legacy_api(t):
    """Names of the functions of the legacy registration interface: those
    security.c or capability.c define that take a struct
    security_operations or set the vector, and that only security/ uses."""
    out = set()
    for rel in (SEC_C, CAP_C):
        if not t.exists(rel):
            continue
        lines = t.lines(rel)
        for name, (a, b) in functions(lines).items():
            head = []
            for l in lines[a:b + 1]:
                head.append(l)
                if l == "{":
                    break
            body = strip_comments("\n".join(lines[a:b + 1]))
            if re.search(r"\bstruct\s+%s\b" % LEGACY_STRUCT, "\n".join(head)) or \
                    re.search(r"\b%s\s*=[^=]" % LEGACY_PTR, body):
                if not lines[a].startswith("static") and not outside_users(t, name):
                    out.add(name)
    return out


def new_header(sh, guard_if):
    """lsm_hooks.h for a tree that has none: security.h's opening comment,
    an include guard, <linux/security.h>, and an empty block under the
    condition of the struct (guard_if, the `#if...` line)."""
    head = []
    if sh and sh[0].startswith("/*"):
        for l in sh:
            head.append(l)
            if l.rstrip().endswith("*/"):
                break
        head.append("")
    guard = "__LINUX_LSM_HOOKS_H"
    cond = re.sub(r"^\s*#\s*(ifdef|if)\s+", "", guard_if).strip()
    return head + ["#ifndef %s" % guard, "#define %s" % guard, "",
                   "#include <linux/security.h>", "", guard_if, "",
                   "#endif /* %s */" % cond, "", "#endif /* ! %s */" % guard, ""]


def split_embedded(t, sh, span, o, e):
    """v21 1/7 on a tree whose struct sits in a larger #if block of
    security.h (4.0): the struct and the prototypes of the legacy
    registration interface move to lsm_hooks.h (made when the tree has
    none), under the struct's condition; the struct's documentation stays
    for the 'docs' step."""
    api = legacy_api(t)
    s, e2 = span
    moved = sh[s:e2 + 1]
    protos, names = [], []
    drop = set(range(s, e2 + 1))
    for i, j, name in prototypes(sh, api):
        # the block's own prototypes first, then those joining it
        protos.append((not o < i < e, i, sh[i:j + 1]))
        names.append(name)
        drop.update(range(i, j + 1))
    protos = [l for _out, _i, p in sorted(protos) for l in p]
    new, cut = [], False
    for k, l in enumerate(sh):
        if k in drop:
            cut = True
            continue
        # where lines went, a blank line goes with them when another one
        # is left next to it
        if cut and not l.strip() and ((new and not new[-1].strip()) or
                                      (k + 1 < len(sh) and not sh[k + 1].strip())):
            cut = False
            continue
        cut = False
        new.append(l)
    t.set(SEC_H, new)
    t.say("changed", SEC_H, s + 1, "struct %s and %d legacy prototypes (%s) moved to %s "
          "(%d lines)" % (LEGACY_STRUCT, len(names), ", ".join(names), HOOKS_H,
                         len(moved) + len(protos)))
    hh = t.lines(HOOKS_H) if t.exists(HOOKS_H) else new_header(sh, sh[o])
    if not t.exists(HOOKS_H):
        t.say("changed", HOOKS_H, 0, "new: the interface for security modules (v21 1/7)")
    block = moved + [""] + ["/* prototypes */"] + protos
    # into the block under the struct's condition, else before the guard's end
    cond = sh[o].strip()
    at = None
    for i, l in enumerate(hh):
        if l.strip() == cond:
            end = group_end(hh, i)
            if end is not None:
                at = end
                while at > i + 1 and not hh[at - 1].strip():
                    at -= 1
                hh[at:end] = ([""] if hh[at - 1].strip() else []) + block + [""]
                break
    if at is None:
        last = max(i for i, l in enumerate(hh) if PP_END.match(l))
        at = last
        hh[at:at] = [cond, ""] + block + ["", "#endif"]
    t.set(HOOKS_H, hh)
    t.say("changed", HOOKS_H, at + 1, "struct %s and the legacy prototypes, from %s"
          % (LEGACY_STRUCT, SEC_H))


def step_split(t, target, hooks, special):
    sh = t.lines(SEC_H)
    hh = t.lines(HOOKS_H) if t.exists(HOOKS_H) else []
    span = struct_span(sh)
    if span is None:
        if struct_span(hh) is None:
            raise InputError(SEC_H, 1, "no struct %s (neither here nor in %s): not a legacy "
                             "tree" % (LEGACY_STRUCT, HOOKS_H))
        include_users(t)
        return
    if struct_span(hh) is not None:
        raise InputError(HOOKS_H, 1, "struct %s is defined here and in %s" % (LEGACY_STRUCT, SEC_H))
    blk = enclosing_if(sh, span[0])
    if blk is None:
        raise InputError(SEC_H, span[0] + 1, "struct %s is not inside an #if block"
                         % LEGACY_STRUCT)
    o, e = blk
    fw = defined_in(t, (SEC_C, CAP_C))
    if not t.exists(HOOKS_H) or not legacy_only(sh, o, e, fw):
        split_embedded(t, sh, span, o, e)
        include_users(t)
        return
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


# ------------------------------------------------------------------- docs
def doc_comment(lines):
    """(first, last) line of the kernel-doc comment that documents struct
    security_operations (its title line names it), or None."""
    i = 0
    while i < len(lines):
        if lines[i].strip() == "/**":
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith("*/"):
                j += 1
            if re.search(r"\bstruct\s+%s\b" % LEGACY_STRUCT, "\n".join(lines[i:min(j, i + 3)])):
                return i, j
            i = j
        i += 1
    return None


def step_docs(t, target, hooks, special):
    """The documentation of the hooks follows the struct into lsm_hooks.h
    (v21 2/7 and 3/7): the comment that documents struct
    security_operations, right above the struct."""
    if not t.exists(HOOKS_H) or struct_span(t.lines(HOOKS_H)) is None:
        if struct_span(t.lines(SEC_H)) is not None:
            raise InputError(SEC_H, 1, "struct %s is still here: run 'split' first"
                             % LEGACY_STRUCT)
        return
    sh = t.lines(SEC_H)
    doc = doc_comment(sh)
    if doc is None:
        return
    a, b = doc
    hh = t.lines(HOOKS_H)
    s = struct_span(hh)[0]
    hh[s:s] = sh[a:b + 1]
    t.set(HOOKS_H, hh)
    del sh[a:b + 1]
    squeeze_at(sh, a)
    t.set(SEC_H, sh)
    t.say("changed", SEC_H, a + 1, "the documentation of struct %s (%d lines) moved to %s"
          % (LEGACY_STRUCT, b - a + 1, HOOKS_H))
    t.say("changed", HOOKS_H, s + 1, "the hook documentation, from %s, above the struct" % SEC_H)


# ------------------------------------------------------------------ heads
def step_heads(t, target, hooks, special):
    hh = t.lines(HOOKS_H) if t.exists(HOOKS_H) else []
    if legacy_block(hh, HOOKS_H) is None and legacy_block(t.lines(SEC_H), SEC_H) is not None:
        raise InputError(SEC_H, 1, "struct %s is still here: run 'split' first" % LEGACY_STRUCT)
    if target is None:
        heads_own(t, hh)
        return
    tgt = target_lines(target, HOOKS_H)
    import_hunks(t, HOOKS_H, HOOKS_H, tgt, FRAMEWORK, "hook-list types")
    text = "\n".join(t.lines(HOOKS_H))
    for name in FRAMEWORK:
        if re.search(r"\b%s\b" % name, "\n".join(tgt)) and not re.search(r"\b%s\b" % name, text):
            t.say("todo", HOOKS_H, 1, "%s is in the target's %s but could not be imported"
                  % (name, HOOKS_H))


def delete_guard(hh):
    """Where security_delete_hooks() goes: None when the tree has no
    reset_security_ops() (no run-time removal), else the #if line its
    prototype sits under inside the legacy block ("" for none)."""
    blk = legacy_block(hh, HOOKS_H)
    if blk is None:
        return None
    o, e = blk
    for i in range(o + 1, e):
        if re.search(r"\breset_security_ops\s*\(", hh[i]):
            inner = enclosing_if(hh, i)
            return hh[inner[0]] if inner and inner[0] != o else ""
    return None


def heads_own(t, hh):
    """v21 5/7 for a tree stacked in its own version: the hook-list types,
    generated from the tree's struct (forward/framework.py), after the
    struct; the includes they need."""
    if re.search(r"\bstruct\s+security_hook_heads\b", "\n".join(hh)):
        return
    span = fw.struct_body(hh)
    if span is None:
        raise InputError(HOOKS_H, 1, "no struct %s here: run 'split' first" % LEGACY_STRUCT)
    heads = fw.hook_heads(hh, span)
    gen = fw.list_options(hh, span) + [""] + heads + [""] + \
        fw.hook_list_types(delete_guard(hh))
    at = span[1] + 2
    hh[at:at] = [""] + gen
    t.say("changed", HOOKS_H, at + 2, "generated from struct %s: union security_list_options, "
          "struct security_hook_heads (%d hooks), struct security_hook_list, LSM_HOOK_INIT(), "
          "security_add_hooks()%s (%d lines)"
          % (LEGACY_STRUCT, sum(1 for l in heads if "struct list_head" in l),
             ", security_delete_hooks()" if "security_delete_hooks" in "\n".join(gen) else "",
             len(gen)))
    for inc in ("linux/rculist.h", "linux/init.h"):
        if not any(re.match(r"#\s*include\s+<%s>" % re.escape(inc), l) for l in hh):
            at = max(i for i, l in enumerate(hh) if re.match(r"#\s*include\s+<", l)) + 1
            hh.insert(at, "#include <%s>" % inc)
            t.say("changed", HOOKS_H, at + 1, "#include <%s> (for the hook lists)" % inc)
    t.set(HOOKS_H, hh)


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


def call_shape(prefix, tail):
    """The shape of a call on its line (calls.plan()): prefix is the text
    of the line before it, tail the text after it."""
    p = prefix.strip()
    if tail.strip() != ";":
        return "expr", None
    if p == "":
        return "stmt", None
    if p == "return":
        return "return", None
    m = re.fullmatch(r"(\w+)\s*=", p)
    return ("assign", m.group(1)) if m else ("expr", None)


def convert_left_calls(t, hooks, special):
    """security_ops->HOOK(args) -> call_*_hook(), textually, in the
    functions spatch cannot parse: the same decision as rule 30
    (lsmconv.calls.plan()), the same code."""
    lines = t.lines(SEC_C)
    text = "\n".join(lines)
    pat = re.compile(r"\b%s->(\w+)\(" % LEGACY_PTR)
    found = []
    # the legacy struct, for the IRCs that name a hook parameter
    sigs = legacy.sigs_of_text("\n".join("\n".join(t.lines(r)) for r in (HOOKS_H, SEC_H)
                                         if t.exists(r)))
    for m in pat.finditer(text):
        hook = m.group(1)
        end = find_call(text, m.end())
        args = text[m.end():end - 1]
        args = re.sub(r"\s*\n\s*", " ", args).strip()
        ls = text.rfind("\n", 0, m.start()) + 1
        le = text.find("\n", end)
        le = len(text) if le < 0 else le
        shape, lhs = call_shape(text[ls:m.start()], text[end:le])
        prev = [l for l in text[:ls].split("\n") if l.strip()][-1:]
        m0 = re.fullmatch(r"\s*\*\s*(\w+)\s*=\s*0\s*;\s*", prev[0]) if prev else None
        act, irc, extra, findings = callsmod.plan(hook, args, shape, hooks, special, sigs,
                                                  m0.group(1) if m0 else None)
        if act is None:
            # left as it is (a loop hook waits for 'switch'): not here
            continue
        found.append((m.start(), end, act, hook, args, irc, extra, lhs, findings))
    if not found:
        return
    out, pos, delta, where = [], 0, 0, []
    for s, e, act, hook, args, irc, extra, lhs, findings in found:
        if act.startswith("void"):
            head, inner = "call_void_hook", hook + (", " + args if args else "")
        else:
            head, inner = "call_int_hook", "%s, %s%s" % (hook, irc, ", " + args if args else "")
        ls = text.rfind("\n", 0, s) + 1
        le = text.find("\n", e)
        le = len(text) if le < 0 else le
        prefix, tail = text[ls:s], text[e:le]
        indent = re.match(r"\s*", prefix).group(0)
        line = text.count("\n", 0, s) + 1 + delta
        before = ["%s*%s = %s;" % (indent, args.split(",")[-1].strip(),
                                   extra if extra != "-" else "0")] if act.endswith("-secid0") else []
        after = ["%sif (%s == %s)" % (indent, lhs, irc),
                 "%s\t%s = %s(%s);" % (indent, lhs, extra, args)] if act == "capfall" else []
        if "\n" not in text[s:e] and LEGACY_PTR + "->" not in prefix + tail and ls >= pos:
            # kernel style: the statement rewrapped at 80 columns
            new = "\n".join(before + wrap(prefix[len(indent):] + head, inner, tail, indent) + after)
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
        where.append((line + len(before), head, hook, findings))
    out.append(text[pos:])
    t.set(SEC_C, "".join(out).split("\n"))
    for line, head, hook, findings in where:
        todo = [msg for kind, msg in findings if kind == "todo"]
        for msg in todo:
            t.say("todo", SEC_C, line, "%s (converted textually: spatch cannot parse the "
                  "function)" % msg)
        if not todo:
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
        if target is None:
            add_interim_macros_own(t, lines)
        else:
            add_interim_macros(t, target, lines)
    convert_left_calls(t, hooks, special)


INTERIM_COMMENT = ["/*", " * Hook operation macros.", " *", " * call_void_hook:",
                   " *\tThis is a hook that does not return a value.", " *",
                   " * call_int_hook:", " *\tThis is a hook that returns a value.", " */"]


def add_interim_macros_own(t, lines):
    """The interim macros of a tree stacked in its own version (v21 4/7),
    where lsmconv.calling_macros (rule 60) puts calling macros: before the
    first function that uses them and the section comment above it."""
    text = "\n".join(lines)
    where = calling_macros.plan(text)
    if where is None:
        return
    block = "\n".join(INTERIM_COMMENT + [""] + interim_defs()) + "\n"
    new = calling_macros.insert(text, where[0], block).split("\n")
    t.set(SEC_C, new)
    at = next(i for i in range(len(new)) if new[i:i + len(INTERIM_COMMENT)] == INTERIM_COMMENT)
    t.say("changed", SEC_C, at + len(INTERIM_COMMENT) + 2, "interim call_void_hook()/"
          "call_int_hook() over %s, with their comment (the IRC is not used yet)" % LEGACY_PTR)


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


def hand_stacked(t, hooks):
    """Modules the legacy security.c calls by hand under a Kconfig symbol
    (4.0's Yama under CONFIG_SECURITY_YAMA_STACKED): [(symbol, prefix,
    file, ops)] where PREFIX_HOOK() are the module's functions, FILE the
    module's source, OPS its ops struct, defined there under #ifndef
    CONFIG_symbol."""
    lines = t.lines(SEC_C)
    found = {}
    for i, l in enumerate(lines):
        m = re.match(r"\s*#\s*ifdef\s+CONFIG_(\w+)", l)
        if not m:
            continue
        end = group_end(lines, i)
        for c in re.finditer(r"\b(\w+?)_(\w+)\s*\(", "\n".join(lines[i:(end or i) + 1])):
            if c.group(2) in hooks and c.group(1) not in ("security", "call_int", "call_void"):
                found.setdefault((m.group(1), c.group(1)), c.group(0).rstrip("(").strip())
    out = []
    for (sym, prefix), fn in sorted(found.items()):
        for dirpath, _dirs, files in os.walk(t.path("security")):
            for f in sorted(files):
                rel = os.path.relpath(os.path.join(dirpath, f), t.root)
                if not f.endswith(".c") or rel in (SEC_C, CAP_C):
                    continue
                text = "\n".join(t.lines(rel))
                if not re.search(r"^\w.*\b%s\s*\(" % re.escape(fn), text, re.M):
                    continue
                om = re.search(r"#\s*ifndef\s+CONFIG_%s\b[^\n]*\n\s*(static\s+)?(const\s+)?"
                               r"struct\s+%s\s+(\w+)\s*=" % (sym, LEGACY_STRUCT), text)
                if om:
                    out.append((sym, prefix, rel, om.group(3)))
    return out


def prototypes(lines, names):
    """[(first, last, name)] line spans of the top-level prototypes (a
    declaration ending in `;`, not static) of the functions NAMES."""
    code = strip_comments("\n".join(lines)).split("\n")
    out, i = [], 0
    while i < len(code):
        m = re.match(r"(extern\s+)?[\w\s\*]*?\b(\w+)\s*\(", code[i])
        if m and not code[i].startswith((" ", "\t", "#", "static")) and m.group(2) in names:
            j = i
            while ";" not in code[j] and j + 1 < len(code):
                j += 1
            if code[j].rstrip().endswith(";"):
                out.append((i, j, m.group(2)))
                i = j + 1
                continue
        i += 1
    return out


def own_protos(t, names):
    """Remove from lsm_hooks.h the prototypes of the functions NAMES."""
    hh = t.lines(HOOKS_H)
    gone = 0
    for i, j, name in prototypes(hh, names):
        t.say("changed", HOOKS_H, i - gone + 1, "removed the prototype of %s()" % name)
        gone += j - i + 1
    for i, j, _name in reversed(prototypes(hh, names)):
        del hh[i:j + 1]
    t.set(HOOKS_H, hh)


def retype_enable(t):
    """security_module_enable(struct security_operations *ops) -> (const
    char *module): the module names itself (4.2)."""
    lines = t.lines(SEC_C)
    fns = functions(lines)
    if "security_module_enable" not in fns:
        return False
    a, b = fns["security_module_enable"]
    m = re.search(r"struct\s+%s\s*\*\s*(\w+)" % LEGACY_STRUCT, lines[a])
    if not m:
        return False
    p = m.group(1)
    lines[a] = lines[a][:m.start()] + "const char *module" + lines[a][m.end():]
    for i in range(a + 1, b + 1):
        lines[i] = re.sub(r"\b%s->name\b" % re.escape(p), "module", lines[i])
    cs = comment_start(lines, a)
    for i in range(cs if cs is not None else a, a):
        if re.match(r"\s*\*\s*@%s:" % re.escape(p), lines[i]):
            lines[i] = " * @module: the name of the module"
    t.set(SEC_C, lines)
    t.say("changed", SEC_C, a + 1, "security_module_enable() takes the module's name")
    hh = t.lines(HOOKS_H)
    for i, l in enumerate(hh):
        if re.search(r"\bsecurity_module_enable\s*\(\s*struct\s+%s" % LEGACY_STRUCT, l):
            hh[i] = "extern int __init security_module_enable(const char *module);"
            t.say("changed", HOOKS_H, i + 1, "security_module_enable() takes the module's name")
    t.set(HOOKS_H, hh)
    return True


def switch_own(t, hooks, special):
    """v21 6/7 for a tree stacked in its own version: security.c walks
    lists generated from the tree's struct (forward/framework.py),
    capability registers the hooks lsmconv.defaults says it may, modules
    stacked by hand get an add-hooks function called at boot."""
    hh = t.lines(HOOKS_H)
    if not re.search(r"\bstruct\s+security_hook_heads\b", "\n".join(hh)):
        raise InputError(HOOKS_H, 1, "no struct security_hook_heads: run 'heads' first")
    sc = t.lines(SEC_C)
    if macro_span(sc) is None and re.search(r"\b%s->" % LEGACY_PTR, "\n".join(sc)):
        raise InputError(SEC_C, 1, "no calling macros: run 'interim-macros' first")
    stacked = hand_stacked(t, hooks)
    api = legacy_api(t)
    if retype_enable(t):
        api.discard("security_module_enable")
    lines = t.lines(SEC_C)
    legacy_vars = set(variables(lines, lambda l: re.search(r"\bstruct\s+%s\b" % LEGACY_STRUCT, l)))
    # The statements of the functions that stay which set up the vector go;
    # the boot-time registration takes the place of the first one.
    mark = "\0lsmconv: the hooks are registered here"
    drop = []
    for name, (a, b) in sorted(functions(lines).items(), key=lambda kv: kv[1]):
        if name in api:
            continue
        for i in range(a, b + 1):
            m = re.match(r"\s+(\w+)\s*(\(.*\)|=[^=].*);\s*$", lines[i])
            if m and (m.group(1) in api or m.group(1) in legacy_vars):
                drop.append(i)
    for i in drop:
        t.say("changed", SEC_C, i + 1, "removed the statement %s" % lines[i].strip())
        lines[i] = mark
    t.set(SEC_C, lines)
    gone = set(n for n in api if n in functions(lines))
    removed = remove_legacy(t, sorted(api))
    remove_orphans(t, removed, [])
    own_protos(t, gone)
    lines = t.lines(SEC_C)
    if mark in lines:
        # the first mark left (the others, and those in functions that
        # went, are no place for it)
        at = lines.index(mark)
        lines = [l for i, l in enumerate(lines) if l != mark or i == at]
        add = ["\tcapability_add_hooks();"]
        for sym, prefix, _rel, _ops in stacked:
            add += ["#ifdef CONFIG_%s" % sym, "\t%s_add_hooks();" % prefix, "#endif"]
        if re.search(r"\bcapability_add_hooks\s*\(", "\n".join(lines)):
            add = []
        lines[at:at + 1] = add
        if add:
            where = [n for n, (a, b) in functions(lines).items() if a <= at <= b]
            then = "".join(", then %s's (CONFIG_%s)" % (p, s_) for s_, p, _r, _o in stacked)
            t.say("changed", SEC_C, at + 1, "%s() registers capability's hooks first%s"
                  % ((where or ["security.c: "])[0], then))
    # the calling macros walk the lists
    span = macro_span(lines)
    if span is not None and not re.search(r"list_for_each_entry", "\n".join(lines[span[0]:span[1] + 1])):
        c = span[0]
        cs = comment_start(lines, c - 1) if c > 0 and not lines[c - 1].strip() else None
        a = cs if cs is not None else c
        lines[a:span[1] + 1] = fw.call_macros()
        t.say("changed", SEC_C, a + 1, "call_void_hook()/call_int_hook() walk the hook lists")
    # wrappers of hooks the tree stacked by hand until another answer
    for hook, sp in sorted(special.items()):
        if sp.cls != "loop" or hook not in hooks:
            continue
        for name, (a, b) in functions(lines).items():
            body = "\n".join(lines[a:b + 1])
            m = re.search(r"\b%s->%s\s*\(" % (LEGACY_PTR, hook), body)
            if not m:
                continue
            end = find_call(body, m.end())
            args = [x.strip() for x in hookmod.split_args(" ".join(body[m.end():end - 1].split()))]
            head = []
            for l in lines[a:b + 1]:
                if l == "{":
                    break
                head.append(l)
            lines[a:b + 1] = fw.loop_wrapper(head, hook, args, hooks[hook].default)
            t.say("changed", SEC_C, a + 1, "%s(): walks the list of %s itself: %s"
                  % (name, hook, sp.why))
            break
    # the list heads
    if not re.search(r"^struct\s+security_hook_heads\s+security_hook_heads\b", "\n".join(lines),
                     re.M):
        while lines and not lines[-1].strip():
            lines.pop()
        heads = fw.heads_definition(hh, fw.struct_body(hh))
        lines += [""] + heads + [""]
        t.say("changed", SEC_C, len(lines) - len(heads), "the list heads (%d hooks), "
              "generated from struct %s" % (sum(1 for l in heads if "LIST_HEAD_INIT" in l),
                                            LEGACY_STRUCT))
    t.set(SEC_C, lines)
    for i, l in enumerate(lines):
        if re.search(r"\b(%s|%s)\b" % (LEGACY_PTR, LEGACY_STRUCT), strip_comments(l)):
            t.say("todo", SEC_C, i + 1, "legacy API left: %s" % l.strip())
    capability_own(t)
    hooks_h_own(t, stacked)
    for sym, prefix, rel, ops in stacked:
        stacked_module(t, sym, prefix, rel, ops)


def capability_own(t):
    """commoncap.c registers the capability functions lsmconv.defaults
    says capability may register (every module of the tree supplying the
    hook calls the function itself)."""
    cc = t.lines(COMMONCAP)
    if re.search(r"\bcapability_hooks\b", "\n".join(cc)):
        return
    regs = defaults.registers(t.root, defaults.stubs(t.root))
    if not regs:
        t.say("todo", COMMONCAP, 0, "no capability function to register: %s has no "
              "security_fixup_ops() filling a hook with one" % CAP_C)
        return
    while cc and not cc[-1].strip():
        cc.pop()
    block = ["", "#ifdef CONFIG_SECURITY", "", "struct security_hook_list capability_hooks[] = {"]
    block += ["\tLSM_HOOK_INIT(%s, %s)," % (h, f) for h, f in regs.items()]
    block += ["};", ""] + fw.add_hooks_function("capability_add_hooks", "capability_hooks") + \
        ["", "#endif /* CONFIG_SECURITY */", ""]
    at = len(cc) + 2
    cc += block
    for i, l in enumerate(cc):
        if re.match(r"#\s*include\s+<linux/security\.h>", l):
            cc[i] = "#include <linux/lsm_hooks.h>"
            t.say("changed", COMMONCAP, i + 1, "#include <linux/lsm_hooks.h> instead of "
                  "<linux/security.h>")
            break
    t.set(COMMONCAP, cc)
    t.say("changed", COMMONCAP, at, "capability_hooks: %d capability functions every module of "
          "the tree calls itself (or does not supply), registered first by "
          "capability_add_hooks()" % len(regs))


def hooks_h_own(t, stacked):
    """Prototypes of the boot-time registrations, after security_module_enable()'s."""
    hh = t.lines(HOOKS_H)
    if re.search(r"\bcapability_add_hooks\s*\(", "\n".join(hh)):
        return
    at = None
    for i, l in enumerate(hh):
        if re.search(r"\bsecurity_module_enable\s*\(", l):
            at = i + 1
    if at is None:
        blk = legacy_block(hh, HOOKS_H)
        at = blk[1] if blk else len(hh) - 1
    add = ["extern void __init capability_add_hooks(void);"]
    for sym, prefix, _rel, _ops in stacked:
        add += ["#ifdef CONFIG_%s" % sym, "extern void __init %s_add_hooks(void);" % prefix,
                "#endif"]
    hh[at:at] = add
    t.set(HOOKS_H, hh)
    t.say("changed", HOOKS_H, at + 1, "prototypes of %s" % ", ".join(
        re.search(r"(\w+)\(void\)", l).group(1) + "()" for l in add if "(void)" in l))


def stacked_module(t, sym, prefix, rel, ops):
    """A module security.c called by hand under CONFIG_SYM: its ops struct
    is no longer only for the unstacked case (its #ifndef goes), and
    PREFIX_add_hooks() registers the hook list it becomes (rule 20 names
    it) when security_init() calls it."""
    lines = t.lines(rel)
    text = "\n".join(lines)
    if re.search(r"\b%s_add_hooks\s*\(" % prefix, text):
        return
    for i, l in enumerate(lines):
        if re.match(r"\s*#\s*ifndef\s+CONFIG_%s\b" % sym, l):
            e = group_end(lines, i)
            body = "\n".join(lines[i + 1:e])
            if e is None or not re.search(r"\bstruct\s+%s\s+%s\b" % (LEGACY_STRUCT, ops), body):
                continue
            name = re.search(r"\.name\s*=\s*(\"[^\"]*\")", body)
            array = lsm_ident(lsm_name(ops, name.group(1) if name else "")) + "_hooks"
            new = lines[i + 1:e] + [""] + fw.add_hooks_function("%s_add_hooks" % prefix, array)
            lines[i:e + 1] = new
            t.set(rel, lines)
            t.say("changed", rel, i + 1, "%s is registered by %s_add_hooks() as well, which "
                  "security_init() calls under CONFIG_%s (the #ifndef around it goes)"
                  % (ops, prefix, sym))
            return
    t.say("todo", rel, 1, "security.c stacks this module by hand under CONFIG_%s, but %s is not "
          "in an #ifndef CONFIG_%s block: register it from security_init() by hand"
          % (sym, ops, sym))


def step_switch(t, target, hooks, special):
    if target is None:
        switch_own(t, hooks, special)
        return
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
def dead_externs(t):
    """`extern struct security_operations X;` declarations under security/
    whose X no other line of security/ names any more (the ops struct
    became a static hook list and its users were converted): removed."""
    files = []
    for dirpath, _dirs, fs in os.walk(t.path("security")):
        files += [os.path.relpath(os.path.join(dirpath, f), t.root) for f in sorted(fs)
                  if f.endswith((".c", ".h"))]
    code = {rel: strip_comments("\n".join(t.lines(rel))) for rel in files}
    for rel in files:
        lines = t.lines(rel)
        for i, l in enumerate(lines):
            m = re.match(r"\s*extern\s+(const\s+)?struct\s+%s\s+(\w+)\s*;" % LEGACY_STRUCT, l)
            if not m:
                continue
            pat = re.compile(r"\b%s\b" % m.group(2))
            users = sum(len(pat.findall(c)) for c in code.values()) - 1
            if users == 0:
                del lines[i]
                squeeze_at(lines, i)
                t.set(rel, lines)
                t.say("changed", rel, i + 1, "removed `%s`: %s is a static hook list now and "
                      "nothing names it" % (l.strip(), m.group(2)))
                break


def step_retire(t, target, hooks, special):
    dead_externs(t)
    names = legacy_protos(t) or []
    if target is None:
        hcode = strip_comments("\n".join(t.lines(HOOKS_H)))
        names = sorted(legacy_api(t) | set(re.findall(
            r"^(?:extern\s+)?[\w \t\*]*?\b(\w+)\s*\([^;{}]*\bstruct\s+%s\b[^;{}]*\)\s*;"
            % LEGACY_STRUCT, hcode, re.M)))
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
    if target is None:
        retire_own(t, hh, names)
        return
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


def retire_own(t, hh, names):
    """The struct and the prototypes that name it go from lsm_hooks.h; the
    hook documentation above it now documents union
    security_list_options, which declares the same hooks."""
    span = struct_span(hh)
    if span is None:
        return
    s, e = span
    doc = doc_comment(hh[:s])
    del hh[s:e + 1]
    while s < len(hh) and not hh[s].strip():
        del hh[s]
    t.say("changed", HOOKS_H, s + 1, "removed struct %s (%d lines)" % (LEGACY_STRUCT, e - s + 1))
    if doc is not None:
        for i in range(doc[0], min(doc[0] + 3, doc[1])):
            if re.search(r"\bstruct\s+%s\b" % LEGACY_STRUCT, hh[i]):
                hh[i] = re.sub(r"\bstruct\s+%s\b" % LEGACY_STRUCT, "union security_list_options",
                               hh[i])
                t.say("changed", HOOKS_H, i + 1, "the hook documentation names union "
                      "security_list_options")
    t.set(HOOKS_H, hh)
    own_protos(t, set(names))


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
    die("usage: %s STEP --tree DIR (--target TARGET | --own)\n  STEP: %s"
        % (PROG, " | ".join(steps())))


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        usage()
    step, tree, target, own = argv[0], None, None, False
    rest = argv[1:]
    while rest:
        if rest[0] in ("--tree", "--target") and len(rest) >= 2:
            if rest[0] == "--tree":
                tree = rest[1]
            else:
                target = rest[1]
            rest = rest[2:]
        elif rest[0] == "--own":
            own = True
            rest = rest[1:]
        else:
            die("unknown argument '%s'" % rest[0])
    names = steps()
    if step not in names:
        die("unknown step '%s' (one of %s)" % (step, ", ".join(names)))
    if not tree or (target is None) == (not own):
        usage()
    for rel in (SEC_H, SEC_C) + (() if own else (HOOKS_H,)):
        if not os.path.isfile(os.path.join(tree, rel)):
            die("not a kernel tree (no %s): %s" % (rel, tree))
    if own:
        # the framework is generated from the tree itself
        hooks = hookmod.load(tree) if hookmod.source_of(tree) else {}
        special = specialmod.derive(tree, hooks)
        return run(step, tree, None, hooks, special)
    for rel in ("include/linux/lsm_hook_defs.h", HOOKS_H, SEC_C, COMMONCAP):
        if not os.path.isfile(os.path.join(target, rel)):
            die("target is not a stacked kernel tree (no %s): %s" % (rel, target))
    hooks = load_hooks(target)
    special = load_special()
    return run(step, tree, target, hooks, special)


def run(step, tree, target, hooks, special):
    t = Tree(tree)
    fn = step_function(step)
    try:
        fn(t, target, hooks, special)
    except InputError as e:
        die(str(e), 1)
    t.commit()
    for item in t.report:
        item = item._replace(rule="forward " + step)
        sys.stdout.buffer.write((itemsmod.to_json(item) + "\n").encode("utf-8", "surrogateescape"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
