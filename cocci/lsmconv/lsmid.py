# SPDX-License-Identifier: GPL-2.0
"""How the target identifies an LSM to security_add_hooks() (port step "reg").

The third argument of security_add_hooks() is read from the target's
prototype in include/linux/lsm_hooks.h, never from a version number:
  name     const char *lsm (4.11 to 6.7): the LSM's name string;
  lsm_id   const struct lsm_id *lsmid (6.8 on): a struct holding the name
           and a numeric ID from include/uapi/linux/lsm.h.
A two-argument call (4.2 to 4.10) gets the target's third argument for
--name.  On an lsm_id target, a call whose third argument is a string literal gets
&IDENT_lsmid, and a `static const struct lsm_id IDENT_lsmid` is written once
before the first function that makes such a call.  Its .id is the target's
LSM_ID_UNDEF: the IDs are uapi (lsm_list_modules(2) reports them) and only
the maintainer can choose one, so that line carries a todo until the
generated comment is removed.  A third argument of the wrong kind for the
target (a name on an lsm_id target, an lsm_id on a name target, or none) is
a todo naming the target's prototype.

ro_attribute(): where the target has no __lsm_ro_after_init (writable hooks
went in 6.4 and the attribute with them), the converter's
`__lsm_ro_after_init` becomes the `__ro_after_init` the target's own LSMs
use.

Also the target's compile-time LSM count (include/linux/lsm_count.h, 6.12
on): `python3 -m lsmconv.lsmid count FILE NAME...` prints FILE with
CONFIG_SECURITY_<NAME> counted, for make port's tree wiring.
"""
import os
import re
import sys

from lsmconv import cscan, kwrap, source
from lsmconv.hooks import split_args
from lsmconv.names import lsm_ident
from lsmconv.cscan import code_text as strip_comments
from lsmconv.items import Line, port_item as Item

MARK = "lsmconv port:"
CALL = re.compile(r"\bsecurity_add_hooks\s*\(")


def _read(tree, rel):
    return source.text(os.path.join(tree, rel))


def add_hooks_form(tree):
    """'lsm_id', 'name', 'none' (two arguments), or None (no prototype)."""
    code = strip_comments(_read(tree, "include/linux/lsm_hooks.h"))
    m = re.search(r"\bsecurity_add_hooks\s*\(([^;]*)\)\s*;", code)
    if not m:
        return None
    params = split_args(m.group(1))
    if len(params) < 3:
        return "none"
    if re.search(r"\bstruct\s+lsm_id\b", params[2]):
        return "lsm_id"
    if re.search(r"\bchar\b", params[2]):
        return "name"
    return None


def prototype(tree):
    m = re.search(r"\bvoid\s+security_add_hooks\s*\([^;]*\)\s*;",
                  strip_comments(_read(tree, "include/linux/lsm_hooks.h")))
    return re.sub(r"\s+", " ", m.group(0)) if m else "security_add_hooks()"


def undef_id(tree):
    """The target's 'no ID' constant (include/uapi/linux/lsm.h), else 0."""
    if re.search(r"#\s*define\s+LSM_ID_UNDEF\b", _read(tree, "include/uapi/linux/lsm.h")):
        return "LSM_ID_UNDEF"
    return "0"


def calls(text):
    """[(start, end, text of the third argument, argument count, call
    offset)] of every security_add_hooks() call in text (offsets into text;
    start and text are None when there is no third argument, and end is
    then where one would go)."""
    code = strip_comments(text)
    out = []
    for m in CALL.finditer(code):
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {"(": 1, ")": -1}.get(code[i], 0)
            i += 1
        if depth:
            continue
        inner = code[m.end():i - 1]
        if re.match(r"\s*(struct\s+)?\w+\s*\*", inner) or "{" in inner:
            continue    # a prototype, not a call
        args = split_args(inner)
        if len(args) < 3:
            e = i - 1
            while code[e - 1].isspace():
                e -= 1
            out.append((None, e, None, len(args), m.start()))
            continue
        # offset of the third argument: after the second top-level comma
        depth, commas, j = 0, 0, m.end()
        while j < i - 1:
            c = code[j]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
            elif c == "," and depth == 0:
                commas += 1
                if commas == 2:
                    break
            j += 1
        s = j + 1
        while code[s].isspace():
            s += 1
        e = i - 1
        while code[e - 1].isspace():
            e -= 1
        out.append((s, e, text[s:e], len(args), m.start()))
    return out


def _line_of(text, off):
    return text.count("\n", 0, off)


def _function_start(lines, idx):
    """Index of the line that starts the top-level definition holding idx
    (lsmconv.cscan.functions: past multi-line #defines)."""
    for f in cscan.functions("\n".join(l.text for l in lines)):
        if f.first <= idx + 1 <= f.last:
            return f.first - 1
    j = idx
    while j > 0:
        t = lines[j].text
        if re.match(r"[A-Za-z_]", t) and "(" in t and not t.rstrip().endswith(";"):
            return j
        j -= 1
    return idx


def convert(port):
    """Rewrite the registration argument of every call in port.files for the
    target's form; items on the lines."""
    form = add_hooks_form(port.target)
    if form not in ("lsm_id", "name"):
        return
    proto = prototype(port.target)
    defined = {}
    for rel in list(port.files):
        text = "\n".join(l.text for l in port.files[rel])
        for s, e, arg, n, at in reversed(calls(text)):
            lines = port.files[rel]
            if s is None and n == 2:
                # 4.2-4.10: no name argument; the port has --name.
                idx = _line_of(text, e)
                col = e - (text.rfind("\n", 0, e) + 1)
                ident = lsm_ident(port.name) + "_lsmid"
                arg = ('"%s"' % port.name) if form == "name" else "&" + ident
                t = lines[idx].text
                lines[idx].text = t[:col] + ", " + arg + t[col:]
                lines[idx].items.append(Item("change", "reg", (
                    "security_add_hooks(hooks, count) -> security_add_hooks(hooks, count, %s): "
                    "the target's is `%s`" % (arg, proto))))
                if form == "lsm_id":
                    defined.setdefault(rel, {})[ident] = (port.name, idx)
                continue
            if s is None:
                lines[_line_of(text, at)].items.append(Item("todo", "reg", (
                    "security_add_hooks() with %d arguments: the target's is `%s`" % (n, proto))))
                continue
            idx = _line_of(text, s)
            literal = re.fullmatch(r'"([a-z][a-z0-9_-]*)"', arg)
            if form == "name":
                if arg.startswith('"'):
                    continue
                lines[idx].items.append(Item("todo", "reg", (
                    "security_add_hooks(..., %s): the target identifies an LSM by its name "
                    "string: `%s`" % (arg, proto))))
                continue
            if not literal:
                if not arg.startswith('"'):
                    continue    # already an lsm_id (or a variable: the compiler checks it)
                lines[idx].items.append(Item("todo", "reg", (
                    "security_add_hooks(..., %s): the target takes a struct lsm_id, not a "
                    "name: `%s`" % (arg, proto))))
                continue
            name = literal.group(1)
            ident = lsm_ident(name) + "_lsmid"
            col = s - (text.rfind("\n", 0, s) + 1)
            t = lines[idx].text
            t = t[:col] + "&" + ident + t[col + len(arg):]
            lead = t[:len(t) - len(t.lstrip())]
            if t.lstrip().startswith("security_add_hooks(") and t.rstrip().endswith(");"):
                t = lead + kwrap.wrap(kwrap._vis(0, lead), t.strip())
            parts = t.split("\n")
            lines[idx].text = parts[0]
            lines[idx + 1:idx + 1] = [Line(x) for x in parts[1:]]
            lines[idx].items.append(Item("change", "reg", (
                "security_add_hooks(..., \"%s\") -> &%s: the target's third argument is a "
                "struct lsm_id (`%s`)" % (name, ident, proto))))
            # calls are visited last to first: the struct goes before the first
            defined.setdefault(rel, {})[ident] = (name, idx)
    undef = undef_id(port.target)
    for rel, ids in defined.items():
        lines = port.files[rel]
        for ident, (name, idx) in sorted(ids.items(), key=lambda x: -x[1][1]):
            if re.search(r"\bstruct\s+lsm_id\s+%s\b" % ident, "\n".join(l.text for l in lines)):
                continue
            at = _function_start(lines, idx)
            block = [Line(x) for x in [
                "/* %s struct lsm_id added, .id = %s until you choose one */" % (MARK, undef),
                "static const struct lsm_id %s = {" % ident,
                "\t.name = \"%s\"," % name,
                "\t.id = %s," % undef,
                "};", ""]]
            block[0].items.append(Item("todo", "reg", (
                "the target registers an LSM with a struct lsm_id: lsmconv wrote %s with "
                ".id = %s; LSM IDs are uapi (include/uapi/linux/lsm.h, reported by "
                "lsm_list_modules(2)): choose the ID (upstream assigns them), set .id, then "
                "remove the comment" % (ident, undef))))
            lines[at:at] = block


def ro_attribute(port):
    """__lsm_ro_after_init -> __ro_after_init where the target lacks it."""
    if re.search(r"#\s*define\s+__lsm_ro_after_init\b",
                 _read(port.target, "include/linux/lsm_hooks.h")):
        return
    for lines in port.files.values():
        for l in lines:
            if re.search(r"\b__lsm_ro_after_init\b", strip_comments(l.text)):
                l.text = re.sub(r"\b__lsm_ro_after_init\b", "__ro_after_init", l.text)
                l.items.append(Item("change", "reg", (
                    "__lsm_ro_after_init -> __ro_after_init: the target defines no "
                    "__lsm_ro_after_init (include/linux/lsm_hooks.h)")))


def count(text, names):
    """lsm_count.h with CONFIG_SECURITY_<NAME> counted; None if its shape is
    not `#define MAX_LSM_COUNT COUNT_LSMS(... X_ENABLED ...)`."""
    m = re.search(r"#define\s+MAX_LSM_COUNT\s*\\\n\s*COUNT_LSMS\(\s*\\\n", text)
    if not m:
        return None
    defs = ""
    entries = ""
    for n in names:
        u = lsm_ident(n).upper()
        if "%s_ENABLED" % u in text:
            continue
        defs += ("#if IS_ENABLED(CONFIG_SECURITY_%s)\n#define %s_ENABLED 1,\n#else\n"
                 "#define %s_ENABLED\n#endif\n\n" % (u, u, u))
        entries += "\t\t%s_ENABLED\t\\\n" % u
    start = text.rfind("\n/*", 0, m.start())
    at = start + 1 if start >= 0 and "__COUNT_LSMS" in text[start:m.start()] else m.start()
    text = text[:m.end()] + entries + text[m.end():]
    return text[:at] + defs + text[at:]


def main(argv):
    if len(argv) >= 3 and argv[0] == "count":
        with open(argv[1], encoding="utf-8") as f:
            out = count(f.read(), argv[2:])
        if out is None:
            sys.stderr.write("%s: no `#define MAX_LSM_COUNT COUNT_LSMS(...)` list\n" % argv[1])
            return 3
        sys.stdout.write(out)
        return 0
    if len(argv) == 2 and argv[0] == "form":
        print(add_hooks_form(argv[1]))
        return 0
    sys.stderr.write("usage: python3 -m lsmconv.lsmid count FILE NAME... | form TREE\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
