# SPDX-License-Identifier: GPL-2.0
"""Headers of a ported module, read against the target tree.

The port's `include` check and make port's build step:

  missing   an `#include` that resolves to no file of the target (the
            target's include paths for ARCH, its generated headers, the
            module's own files): a todo naming the header, and from the one
            documented table headers.tsv the kernel version that removed or
            moved it and its replacement.  The table never decides what is
            missing; the tree does.
  types     a hook function that dereferences a parameter of type
            `struct T *` needs T's definition; legacy security.h brought
            many in (linux/binfmts.h, ...), the target's declares them only.
            When nothing the file includes defines T on the target (its
            include closure, read from the tree), the header of the target
            that defines `struct T {` is included (a change).
  included  the files a module includes by a quoted path that are not .c/.h
            (`#include "hooks.lst"`): the port copies them with the module.

    python3 -m lsmconv.headers missing --target TREE [--name NAME] FILE...
        one line per missing header: FILE:LINE<TAB>header<TAB>what the table says
Exit 0, 2 usage or input error (lsmconv.exits).  make port's build step
uses these through lsmconv.buildprep.

ARCH is the architecture make port builds (qemu-boot boots x86_64 only).
"""
import argparse
import os
import re
import sys

from lsmconv import cscan, exits, hooks as hookmod, source
from lsmconv.items import Line, port_item as Item

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "headers.tsv")
ARCH = "x86"

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def load_versioned(path, heading, gone):
    """A table of what upstream changed, one row a name: name, its
    replacements (comma-separated, or `gone` when there is none), the
    version, the commit, what to do.  The heading row starts with
    `heading`.  {name: {"new": [...], "version", "commit", "what"}}.
    headers.tsv and port's renames.tsv have this shape."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for l in f:
            if l.startswith("#") or not l.strip():
                continue
            p = l.rstrip("\n").split("\t")
            if len(p) != 5 or p[0] == heading:
                continue
            out[p[0]] = {"new": [] if p[1] == gone else p[1].split(","), "version": p[2],
                         "commit": p[3], "what": p[4]}
    return out


def load_table(path=TABLE):
    """{header: {"new": [...], "version", "commit", "what"}}."""
    return load_versioned(path, "header", "-")


# ---------------------------------------------------------------- the target

class Target:
    """Where an include resolves in the target tree (for ARCH)."""

    def __init__(self, tree, arch=ARCH):
        self.tree = tree
        self.dirs = ["arch/%s/include" % arch, "include", "arch/%s/include/uapi" % arch,
                     "include/uapi"]
        self.arch = arch
        self._generated = None
        self._incs = {}
        self._defs = None

    def isfile(self, rel):
        return os.path.isfile(os.path.join(self.tree, rel))

    def generated(self):
        """Basenames of the headers the target's build generates: those its
        top-level and ARCH's Makefiles and Kbuild files name (version.h,
        autoconf.h, unistd_64.h, ...); they are in no source directory."""
        if self._generated is None:
            names = set()
            files = [os.path.join(self.tree, f) for f in ("Makefile", "Kbuild")]
            for d, dirs, fs in os.walk(os.path.join(self.tree, "arch", self.arch)):
                dirs.sort()
                files += [os.path.join(d, f) for f in fs if f in ("Makefile", "Kbuild")
                          or f.startswith("Makefile.")]
            for f in files:
                names |= set(re.findall(r"([\w-]+\.h)\b", source.text(f)))
            self._generated = names
        return self._generated

    def resolve(self, header, base=None):
        """The target-relative path of header (a quoted one first relative
        to the target directory base), "(generated)" for a header the build
        generates, or None: the target does not have it."""
        if base is not None:
            p = os.path.normpath(os.path.join(base, header))
            if not p.startswith("..") and self.isfile(p):
                return p
        for d in self.dirs:
            if self.isfile(os.path.join(d, header)):
                return os.path.join(d, header)
        if header.startswith("asm/"):
            # asm-generic wrappers (mandatory-y, generic-y) are generated
            for d in ("include/asm-generic", "include/uapi/asm-generic"):
                if self.isfile(os.path.join(d, header[4:])):
                    return os.path.join(d, header[4:])
        if os.path.basename(header) in self.generated():
            return "(generated)"
        return None

    def includes(self, rel):
        """[(header, quoted)] a target file includes (conditions ignored)."""
        if rel not in self._incs:
            text = source.text(os.path.join(self.tree, rel)) if not rel.startswith("(") else ""
            self._incs[rel] = [(m.group(2), m.group(1) == '"') for m in (
                INCLUDE.match(l) for l in cscan.strip_comments(text).split("\n")) if m]
        return self._incs[rel]

    def closure(self, start):
        """Every target file reached from the target files `start` through
        their includes (an over-approximation: #if is not evaluated)."""
        seen, todo = set(), list(start)
        while todo:
            rel = todo.pop()
            if rel in seen or rel.startswith("("):
                continue
            seen.add(rel)
            for h, quoted in self.includes(rel):
                r = self.resolve(h, os.path.dirname(rel) if quoted else None)
                if r and r not in seen:
                    todo.append(r)
        return seen

    def defining(self, structs):
        """{T: header} for each struct T defined (`struct T {`) in a header
        under include/ (the path as an include names it); the first in
        sorted order."""
        want = set(structs)
        out = {}
        if not want:
            return out
        pat = re.compile(r"^struct\s+(%s)\s*\{" % "|".join(sorted(re.escape(s) for s in want)),
                         re.M)
        root = os.path.join(self.tree, "include")
        for d, dirs, fs in os.walk(root):
            dirs.sort()
            dirs[:] = [x for x in dirs if x != "generated"]
            for f in sorted(fs):
                if not f.endswith(".h"):
                    continue
                p = os.path.join(d, f)
                with open(p, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                for m in pat.finditer(text):
                    rel = os.path.relpath(p, root)
                    if rel.startswith("uapi/"):
                        rel = rel[5:]
                    out.setdefault(m.group(1), rel)
        return out


# ---------------------------------------------------------------- the module

def directives(text):
    """[(idx, header, quoted)] of the #include lines of C text that are not
    inside `#if 0`."""
    out = []
    depth0 = 0          # nesting inside an #if 0
    lines = cscan.strip_comments(text).split("\n")
    for idx, l in enumerate(lines):
        s = l.strip()
        if re.match(r"#\s*if(n?def)?\b", s):
            if depth0 or re.match(r"#\s*if\s+0\s*$", s):
                depth0 += 1
            continue
        if re.match(r"#\s*endif\b", s):
            depth0 = max(depth0 - 1, 0)
            continue
        if depth0 and re.match(r"#\s*(else|elif)\b", s) and depth0 == 1:
            depth0 = 0 if re.match(r"#\s*else\b", s) else 1
            continue
        if depth0:
            continue
        m = INCLUDE.match(l)
        if m:
            out.append((idx, m.group(2), m.group(1) == '"'))
    return out


def module_file(files, rel, header):
    """The module file (a key of files) a quoted include in rel names, or None."""
    for base in (os.path.dirname(rel), ""):
        p = os.path.normpath(os.path.join(base, header))
        if p in files:
            return p
    return None


def missing(target, texts, name):
    """[(rel, idx, header)] of the includes in texts ({rel: text}) that
    resolve neither to a module file nor to the target (installed as
    security/NAME/REL by make port)."""
    t = target if isinstance(target, Target) else Target(target)
    out = []
    for rel in sorted(texts):
        base = os.path.join("security", name, os.path.dirname(rel))
        for idx, h, quoted in directives(texts[rel]):
            if quoted and module_file(texts, rel, h):
                continue
            if t.resolve(h, base if quoted else None) is None:
                out.append((rel, idx, h))
    return out


def todo_text(header, quoted, row, target):
    inc = '"%s"' % header if quoted else "<%s>" % header
    where = ", ".join(Target(target).dirs[:2])
    if row is None:
        return ("#include %s: the target has no such header (not in %s, their uapi/, nor a "
                "header its build generates) and lsmconv's headers table "
                "(cocci/lsmconv/headers.tsv) has no row for it: a header removed or moved "
                "upstream, of another architecture, or of the module's own tree; include what "
                "declares, on the target, what the module uses from it, or drop it" % (inc, where))
    when = row["version"]
    commit = "" if row["commit"] == "-" else " (%s)" % row["commit"]
    if when == "arch":
        when = "never in %s (another architecture's header)" % ARCH
    elif when.endswith("?"):
        when = "gone in %s%s (the version not checked against a release tag)" % (
            when[:-1], commit)
    else:
        when = "gone in %s%s" % (when, commit)
    new = " or ".join("<%s>" % n for n in row["new"] if Target(target).resolve(n))
    return ("#include %s: the target has no such header: %s: %s; %s" % (
        inc, when, row["what"], ("include %s instead, for what the module uses from it "
                                 "(make port builds with an empty stub for it meanwhile)" % new)
        if new else "remove the include and what needs it"))


def check(port):
    """The port's `include` check: a todo at every #include of a header the
    target does not have (unless a check before it has a todo there: the
    sweep's #include of capability.c)."""
    table = load_table()
    texts = {rel: port.text(rel) for rel in port.files}
    t = Target(port.target)
    for rel, idx, h in missing(t, texts, port.name):
        line = port.files[rel][idx]
        if any(it.kind == "todo" for it in line.items):
            continue        # the sweep's #include of capability.c, an earlier run's
        quoted = INCLUDE.match(line.text).group(1) == '"'
        line.items.append(Item("todo", "include", todo_text(h, quoted, table.get(h), port.target)))


# ---------------------------------------------------------------- types

def _file_closure(t, files, rel, name, seen=None):
    """The target files the module file rel reaches through its includes
    (and through the module's own headers)."""
    seen = set() if seen is None else seen
    if rel in seen:
        return set()
    seen.add(rel)
    out = set()
    base = os.path.join("security", name, os.path.dirname(rel))
    for _, h, quoted in directives("\n".join(l.text for l in files[rel])):
        mf = module_file(files, rel, h) if quoted else None
        if mf:
            out |= _file_closure(t, files, mf, name, seen)
            continue
        r = t.resolve(h, base if quoted else None)
        if r:
            out.add(r)
    return out


def type_includes(port):
    """The port's `include` check for hook argument types (see the module
    docstring): an #include of the header that defines `struct T` for every
    parameter `struct T *p` a hook function of the module dereferences
    (p->, *p, p[) when nothing the file includes defines T on the target."""
    t = Target(port.target)
    code = {rel: port.text(rel) for rel in port.files}
    need = {}           # rel -> {T: (fn, hook, param)}
    for rel, arr, idx, kind, hook, fn in port.entries():
        if kind != "init" or hook not in port.hooks:
            continue
        for frel in port.files:
            for f in cscan.functions(code[frel]):
                if f.name != fn:
                    continue
                body = cscan.code_text(code[frel])[f.open:f.close]
                for decl in (cscan.split_args(f.params) if f.params.strip() else []):
                    typ, pname = hookmod.param(decl)
                    m = re.fullmatch(r"(?:const\s+)?struct\s+(\w+)\s*\*", cscan.norm_type(typ))
                    if not m or not pname:
                        continue
                    if re.search(r"\b%s\s*(->|\[)|\*\s*%s\b" % (pname, pname), body):
                        need.setdefault(frel, {}).setdefault(m.group(1), (fn, hook, pname))
    if not need:
        return
    closures = {rel: t.closure(_file_closure(t, port.files, rel, port.name)) for rel in need}
    defined_in = {}
    for rel, structs in need.items():
        texts = [source.text(os.path.join(port.target, r)) for r in sorted(closures[rel])]
        have = set(re.findall(r"^struct\s+(\w+)\s*\{", "\n".join(texts), re.M))
        have |= set(re.findall(r"^\s*struct\s+(\w+)\s*\{", "\n".join(
            code[r] for r in port.files), re.M))
        for s in sorted(structs):
            if s not in have:
                defined_in.setdefault(rel, {})[s] = structs[s]
    if not defined_in:
        return
    where = t.defining({s for d in defined_in.values() for s in d})
    for rel in sorted(defined_in):
        by_header = {}
        for s, why in sorted(defined_in[rel].items()):
            if s in where:
                by_header.setdefault(where[s], []).append((s, why))
        if not by_header:
            continue
        lines = port.files[rel]
        incs = [idx for idx, h, q in directives(port.text(rel)) if not q]
        at = incs[-1] + 1 if incs else 0
        for h in sorted(by_header):
            new = Line("#include <%s>" % h)
            lines.insert(at, new)
            at += 1
            new.items.append(Item("change", "include", (
                "#include <%s> added: %s; on the target nothing this file includes "
                "defines %s (a declaration `struct %s;` does not let the code dereference it)"
                % (h, "; ".join("%s() dereferences its parameter %s, a struct %s * (hook %s)"
                                % (fn, p, s, hook) for s, (fn, hook, p) in by_header[h]),
                   " or ".join("struct %s" % s for s, _ in by_header[h]), by_header[h][0][0]))))


# ---------------------------------------------------------------- included files

def included_files(src, rels):
    """The files under src that the .c/.h files rels include by a quoted
    path and that are not .c/.h themselves (any extension), recursively;
    module-relative paths, sorted."""
    out = set()
    todo = list(rels)
    seen = set()
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        try:
            with open(os.path.join(src, rel), encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError:
            continue
        for _, h, quoted in directives(text):
            if not quoted:
                continue
            for base in (os.path.dirname(rel), ""):
                p = os.path.normpath(os.path.join(base, h))
                if not p.startswith("..") and os.path.isfile(os.path.join(src, p)):
                    if not p.endswith((".c", ".h")):
                        out.add(p)
                    todo.append(p)
                    break
    return sorted(out)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m lsmconv.headers missing")
    ap.add_argument("cmd", choices=["missing"])
    ap.add_argument("--target", required=True)
    ap.add_argument("--name", default="module")
    ap.add_argument("files", nargs="+")
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return exits.USAGE if e.code else exits.DONE
    if not os.path.isdir(os.path.join(a.target, "include")):
        sys.stderr.write("lsmconv.headers: not a kernel tree: %s\n" % a.target)
        return exits.USAGE
    table = load_table()
    texts = {}
    try:
        for f in a.files:
            with open(f, encoding="utf-8", errors="surrogateescape") as fh:
                texts[f] = fh.read()
        # the files they include that are not .c/.h are the module's too
        for f in a.files:
            d = os.path.dirname(f)
            for rel in included_files(d or ".", [os.path.basename(f)]):
                p = os.path.normpath(os.path.join(d, rel))
                with open(p, encoding="utf-8", errors="surrogateescape") as fh:
                    texts.setdefault(p, fh.read())
    except OSError as e:
        sys.stderr.write("lsmconv.headers: %s\n" % e)
        return exits.USAGE
    for rel, idx, h in missing(a.target, texts, a.name):
        row = table.get(h)
        print("%s:%d\t%s\t%s" % (rel, idx + 1, h, "%s: %s" % (row["version"], row["what"])
                                 if row else "not in headers.tsv"))
    return exits.DONE


if __name__ == "__main__":
    sys.exit(main())
