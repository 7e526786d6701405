# SPDX-License-Identifier: GPL-2.0
"""Report items: what the converter did and what it left for a human.

One item per finding, written one JSON object a line (items.jsonl):

    file     the user's path of the file (as given on the command line, or
             TREE/relative path in tree mode); a name that is not UTF-8
             keeps its bytes as \\udcXX escapes (Python's surrogateescape:
             os.fsencode() gives the bytes back)
    line     line in the converted file (0: the whole file)
    kind     entry | call | capchain | special | reg | todo  (from the rules)
             parse  (spatch cannot parse the code around this line)
             file   (one per input: message "changed" or "unchanged")
             any other kind a rule prints is kept as it is
    hook     the hook the message names, or null
    message  what was done, or what to do and why
    rule     the rule that reported it ("20-hook-list"), or "driver"

Rules report on stdout, one line each (docs/converter.md):

    LSMCONV<TAB>kind<TAB>file<TAB>line<TAB>detail

As a command (for scripts that need counts or todos, never the Markdown):

    python3 -m lsmconv.items count FILE   "KIND N" per kind, sorted
    python3 -m lsmconv.items todos FILE   "file:line: message" per todo,
                                          in report order
"""
import json
import re
import sys
from collections import namedtuple

Item = namedtuple("Item", "file line kind hook message rule")

# Kinds the rules print that the report has a column for, in column order.
COLUMNS = ("entry", "call", "capchain", "special", "reg", "todo")

# Kinds the driver adds (not rule findings).
DRIVER_KINDS = ("file", "parse")

# The hook a message names: LSM_HOOK_INIT(hook, ...), security_ops->hook(),
# call_int_hook(hook, ...), cap_hook() / yama_hook() chains, ".hook entry",
# a message that starts with "hook: ", a ".hook = " field.
_HOOK_RES = (
    re.compile(r"LSM_HOOK_INIT\(\s*(\w+)"),
    re.compile(r"security_ops->(\w+)"),
    re.compile(r"call_(?:int|void)_hook\(\s*(\w+)"),
    re.compile(r"\bcap_(\w+)\("),
    re.compile(r"\byama_(\w+)\("),
    re.compile(r"left-over \.(\w+) entry"),
    re.compile(r"\bsecurity_(\w+)\(\)"),
    re.compile(r"^(\w+): "),
    re.compile(r"\.(\w+)\s*="),
)


def hook_of(message, hooks=None):
    """The hook named in a message, or None.  With `hooks` (a set of the
    target's hook names) a name that is not a hook gives None."""
    for r in _HOOK_RES:
        m = r.search(message)
        if m and (hooks is None or m.group(1) in hooks):
            return m.group(1)
    return None


def parse_line(text):
    """A rule's `LSMCONV<TAB>kind<TAB>file<TAB>line<TAB>detail` line ->
    (kind, file, line, detail), or None.  detail may hold tabs."""
    if not text.startswith("LSMCONV\t"):
        return None
    parts = text.rstrip("\n").split("\t", 4)
    if len(parts) < 5:
        return None
    return parts[1], parts[2], parts[3], parts[4]


def to_json(item):
    return json.dumps(item._asdict(), ensure_ascii=True, sort_keys=False)


def dumps(items):
    return "".join(to_json(i) + "\n" for i in items)


def load(path):
    """Items of an items.jsonl file, in file order."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            if not text.strip():
                continue
            try:
                d = json.loads(text)
                out.append(Item(d["file"], d["line"], d["kind"], d.get("hook"),
                                d["message"], d.get("rule")))
            except (ValueError, KeyError, TypeError) as e:
                raise ValueError("%s:%d: not an item: %s" % (path, n, e))
    return out


def findings(items):
    """Items that are findings (not the driver's per-file records)."""
    return [i for i in items if i.kind not in DRIVER_KINDS]


def sort_key(item):
    return (item.file, item.line)


def todos(items):
    """The todo items in report order (file, then line)."""
    return sorted((i for i in items if i.kind == "todo"), key=sort_key)


def counts(items):
    """{kind: number} of the findings."""
    out = {}
    for i in findings(items):
        out[i.kind] = out.get(i.kind, 0) + 1
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or argv[0] not in ("count", "todos"):
        sys.stderr.write("usage: python3 -m lsmconv.items count|todos ITEMS.jsonl\n")
        return 2
    try:
        items = load(argv[1])
    except (OSError, ValueError) as e:
        sys.stderr.write("lsmconv.items: %s\n" % e)
        return 2
    if argv[0] == "count":
        c = counts(items)
        text = "".join("%s %d\n" % (k, c[k]) for k in sorted(c))
    else:
        text = "".join("%s:%s: %s\n" % (i.file, i.line, i.message) for i in todos(items))
    sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
