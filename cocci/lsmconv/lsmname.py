# SPDX-License-Identifier: GPL-2.0
"""The LSM's name is the one the user gave (convert.sh port --name, make
port NAME=), everywhere the target uses it (port check "name").

The converter's rules name a module after its legacy ops struct
(lsmconv.names.lsm_name: the `.name` string, else the ops variable less
`_ops`), and a module of a later epoch carries its own name.  The target
knows an LSM by the name in DEFINE_LSM (`.name`: what `lsm=`, CONFIG_LSM and
/sys/kernel/security/lsm use), by security_add_hooks()'s name string and by
the `.name` of a struct lsm_id.  rename() makes every one of those --name,
and DEFINE_LSM's identifier its C form, each with a "changed" item naming
the old name; a module defining more than one DEFINE_LSM is a todo (one
--name cannot name two LSMs).

    python3 -m lsmconv.lsmname legacy FILE...

prints the name a legacy tree knows the module by: the `.name` string of
each `struct security_operations` initializer in the FILEs (what the
tree's security_module_enable() compares with `security=`), one a line.
"""
import re
import sys

from lsmconv import lsmid
from lsmconv.cscan import strip_comments
from lsmconv.items import port_item as Item
from lsmconv.names import lsm_ident

CHECK = "name"
WHERE = "lsm=, CONFIG_LSM, /sys/kernel/security/lsm"


def _block(code, brace):
    """Offset just past the `}` matching the `{` at brace, or -1."""
    depth, i = 0, brace
    while i < len(code):
        c = code[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


NAME_FIELD = re.compile(r'\.name\s*=\s*"([^"\\\n]*)"')


def _name_fields(code, start, head):
    """[(start, end, name)] of `.name = "x"` inside each initializer that
    head (a regex ending in `{`) opens in code, from start."""
    out = []
    for m in head.finditer(code, start):
        end = _block(code, m.end() - 1)
        if end < 0:
            continue
        for f in NAME_FIELD.finditer(code, m.end(), end):
            out.append((f.start(1), f.end(1), f.group(1)))
    return out


DEFINE = re.compile(r"\bDEFINE_LSM\s*\(\s*(\w+)\s*\)\s*=\s*\{")
LSM_ID = re.compile(r"\bstruct\s+lsm_id\s+\w+(?:\s+__\w+)*\s*=\s*\{")
OPS = re.compile(r"\bstruct\s+security_operations\s+\w+(?:\s+__\w+)*\s*=\s*\{")


def occurrences(text):
    """[(start, end, old, what)] of every place text names its LSM: the
    identifier and the `.name` of each DEFINE_LSM, the name string of each
    security_add_hooks() call, the `.name` of each struct lsm_id."""
    code = strip_comments(text)
    out = []
    for m in DEFINE.finditer(code):
        out.append((m.start(1), m.end(1), m.group(1), "DEFINE_LSM(%s)"))
    for s, e, n in _name_fields(code, 0, DEFINE):
        out.append((s, e, n, "DEFINE_LSM's .name = \"%s\""))
    for s, e, arg, _, _ in lsmid.calls(text):
        lit = re.fullmatch(r'"([^"\\\n]*)"', arg or "")
        if lit:
            out.append((s + 1, e - 1, lit.group(1), "security_add_hooks(..., \"%s\")"))
    for s, e, n in _name_fields(code, 0, LSM_ID):
        out.append((s, e, n, "struct lsm_id's .name = \"%s\""))
    return sorted(out)


def rename(port):
    """Every name of port.files' LSM (occurrences()) becomes port.name
    (DEFINE_LSM's identifier: its C form); an item on each changed line."""
    name = port.name
    ident = lsm_ident(name)
    defines = []
    for rel, lines in port.files.items():
        text = "\n".join(l.text for l in lines)
        defines += [(rel, text.count("\n", 0, m.start()), m.group(1))
                    for m in DEFINE.finditer(strip_comments(text))]
    if len(defines) > 1:
        for rel, idx, old in defines:
            port.files[rel][idx].items.append(Item("todo", CHECK, (
                "DEFINE_LSM(%s) is one of %d LSMs this module defines (%s): --name %s names "
                "one LSM; split the module or give each its name by hand" % (
                    old, len(defines), ", ".join(d[2] for d in defines), name))))
        return
    for rel, lines in port.files.items():
        text = "\n".join(l.text for l in lines)
        edits = []
        for s, e, old, what in occurrences(text):
            new = ident if what.startswith("DEFINE_LSM(") else name
            if old != new:
                edits.append((s, e, old, new, what))
        if not edits:
            continue
        orig = text
        for s, e, old, new, what in reversed(edits):
            text = text[:s] + new + text[e:]
        for i, t in enumerate(text.split("\n")):
            lines[i].text = t
        for s, e, old, new, what in edits:
            # no edit changes a line break: the line of s before is its line now
            lines[orig.count("\n", 0, s)].items.append(Item("change", CHECK, (
                "%s -> %s: --name names the LSM (%s); \"%s\" was the source's name (the "
                "legacy ops struct's .name or variable, or the module's own)" % (
                    what % old, what % new, WHERE, old))))


def legacy_names(texts):
    """The `.name` strings of every struct security_operations initializer."""
    out = []
    for t in texts:
        code = strip_comments(t)
        out += [n for _, _, n in _name_fields(code, 0, OPS)]
    return out


def main(argv):
    if len(argv) < 2 or argv[0] != "legacy":
        sys.stderr.write("usage: python3 -m lsmconv.lsmname legacy FILE...\n")
        return 2
    texts = []
    for f in argv[1:]:
        with open(f, encoding="utf-8", errors="surrogateescape") as fh:
            texts.append(fh.read())
    for n in legacy_names(texts):
        print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
