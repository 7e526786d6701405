# SPDX-License-Identifier: GPL-2.0
"""Items: what a producer did and what it left for a human, in one type.

Every producer writes items (the driver `convert.sh file|tree --items`, the
port `convert.sh port --items` and its checks, the series' final todos); every
consumer reads them (`load`, or the command below), never the Markdown:
report.md is rendered from items by lsmconv.report alone.

One item per finding, written one JSON object a line (items.jsonl):

    file     the user's path of the file (as given on the command line, or
             TREE/relative path in tree mode; the module-relative path in
             the port); a name that is not UTF-8 keeps its bytes as \\udcXX
             escapes (Python's surrogateescape: os.fsencode() gives the
             bytes back)
    line     line in the converted file (0: the whole file)
    kind     entry | call | capchain | special | reg | todo  (from the rules)
             parse  (spatch cannot parse the code around this line)
             file   (one per input: message "changed" or "unchanged")
             change | todo  (the port's checks)
             changed | imported | todo  (the forward steps)
             any other kind a rule prints is kept as it is
    hook     the hook the message names, or null
    message  what was done, or what to do and why
    rule     the rule that reported it ("20-hook-list"), "driver" (its
             legacy-left sweep: "driver-left", lsmconv.claims), "port",
             "forward", "series"
    check    the port's check (cap, sig, reg, name, blob, sweep, entry, convert,
             lsmid), or null
    action   what to do, where the producer says it apart from the message
             (null: the message says it)
    state    changed | todo | imported: what the human has to do with it
             (imported: text copied from the target tree).  Derived from
             the kind where a producer does not give it (todo -> todo, any
             other finding -> changed); null for the driver's per-file
             records (kinds file and parse), which are not findings.

An items.jsonl without the last three fields (written before they existed)
loads the same, with the state derived.

Rules report on stdout, one line each (docs/converter.md), and keep doing so:

    LSMCONV<TAB>kind<TAB>file<TAB>line<TAB>detail

The port builds its output line by line: `Line` is one output line with the
items found on it, and `todo()`/`change()` make an item that is placed
(`placed()`: file and line) once the lines stop moving.  Its checks in other
modules (blobs.rewrite, lsmid.convert) use these too.

As a command (for scripts that need counts or todos, never the Markdown):

    python3 -m lsmconv.items count FILE...  "KIND N" per kind of the findings,
                                            sorted; "todo N" counts the items
                                            whose state is todo
    python3 -m lsmconv.items todos FILE...  "file:line: text" per todo, in
                                            report order
    python3 -m lsmconv.items select todo [--sort] [--strip DIR] FILE...
                                            the todo items as items.jsonl, in
                                            the files' order (--sort: report
                                            order); --strip removes the first
                                            "DIR/" of the file (else of the
                                            message); with --still SNAPSHOT
                                            (a git tree of DIR) only those
                                            whose line DIR still has as in
                                            SNAPSHOT
    python3 -m lsmconv.items from-lines RULE
                                            `file:line: message` lines on
                                            stdin as todo items
Exit 0, 2 on a usage or input error (lsmconv.exits).
"""
import json
import re
import subprocess
import sys
from collections import namedtuple

from lsmconv import exits

FIELDS = ("file", "line", "kind", "hook", "message", "rule", "check", "action", "state")
Item = namedtuple("Item", FIELDS, defaults=(None, None, None))

STATES = ("changed", "todo", "imported")

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


def derive_state(kind):
    """The state of an item of this kind whose producer gave none."""
    if kind in DRIVER_KINDS:
        return None
    if kind in STATES:
        return kind
    return "todo" if kind == "todo" else "changed"


def make(file, line, kind, hook, message, rule, check=None, action=None, state=None):
    """An item; the state derived from the kind when not given."""
    return Item(file, line, kind, hook, message, rule, check, action,
                state if state is not None else derive_state(kind))


def state_of(item):
    return item.state if item.state is not None else derive_state(item.kind)


# ------------------------------------------------------------ the port's lines

class Line:
    """One output line of the port and the items found on it (not yet
    placed: the line may still move)."""
    __slots__ = ("text", "items")

    def __init__(self, text):
        self.text = text
        self.items = []


def todo(check, message, action=None, rule="port"):
    """A todo of a port check, to be placed on a Line."""
    return Item(None, None, "todo", None, message, rule, check, action, "todo")


def change(check, message, rule="port"):
    """A change a port check made, to be placed on a Line."""
    return Item(None, None, "change", None, message, rule, check, None, "changed")


def port_item(kind, check, message):
    """todo() or change() by kind ("todo" or "change"): the constructor
    the port's checks (port.py, blobs.py, lsmid.py) import as Item."""
    return todo(check, message) if kind == "todo" else change(check, message)


def placed(item, file, line):
    return item._replace(file=file, line=line)


def text(item):
    """The item's one-line text: `[check] message` when it has a check."""
    return "[%s] %s" % (item.check, item.message) if item.check else item.message


# ------------------------------------------------------------ reading, writing

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
                out.append(make(d["file"], d["line"], d["kind"], d.get("hook"),
                                d["message"], d.get("rule"), d.get("check"),
                                d.get("action"), d.get("state")))
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                raise ValueError("%s:%d: not an item: %s" % (path, n, e))
            if out[-1].state not in STATES + (None,):
                raise ValueError("%s:%d: not an item: state %r" % (path, n, out[-1].state))
    return out


def from_lines(lines, rule):
    """Todo items of `file:line: message` lines."""
    out = []
    for text in lines:
        m = re.match(r"(.+?):(\d+): (.*)$", text.rstrip("\n"))
        if m:
            out.append(make(m.group(1), int(m.group(2)), "todo", None, m.group(3), rule))
    return out


def findings(items):
    """Items that are findings (not the driver's per-file records)."""
    return [i for i in items if i.kind not in DRIVER_KINDS]


def sort_key(item):
    return (item.file, item.line)


def todos(items):
    """The todo items in report order (file, then line)."""
    return sorted((i for i in items if state_of(i) == "todo"), key=sort_key)


def counts(items):
    """{kind: number} of the findings; "todo" counts every todo state."""
    out = {}
    for i in findings(items):
        k = "todo" if state_of(i) == "todo" else i.kind
        out[k] = out.get(k, 0) + 1
    return out


def _strip(item, prefix):
    """The first "PREFIX/" of the item's `file:line: message` line removed."""
    if not prefix:
        return item
    p = prefix.rstrip("/") + "/"
    if p in item.file:
        return item._replace(file=item.file.replace(p, "", 1))
    return item._replace(message=item.message.replace(p, "", 1))


def still_there(items, repo, snapshot):
    """The items whose line reads the same in the git work tree `repo` as
    in its tree object `snapshot` (a todo of an earlier step whose line a
    later step rewrote or removed is not left); file paths relative to
    repo.  A file that cannot be read in either keeps its items."""
    cache = {}

    def lines(kind, f):
        if (kind, f) not in cache:
            try:
                if kind == "now":
                    with open("%s/%s" % (repo, f), "rb") as fh:
                        data = fh.read()
                else:
                    data = subprocess.run(["git", "-C", repo, "show", "%s:%s" % (snapshot, f)],
                                          capture_output=True, check=True).stdout
                cache[(kind, f)] = data.split(b"\n")
            except (OSError, subprocess.CalledProcessError):
                cache[(kind, f)] = None
        return cache[(kind, f)]

    out = []
    for i in items:
        now, then = lines("now", i.file), lines("then", i.file)
        if now is None or then is None or not i.line or i.line > len(then) or \
                (i.line <= len(now) and now[i.line - 1] == then[i.line - 1]):
            out.append(i)
    return out


USAGE = """usage: python3 -m lsmconv.items count ITEMS.jsonl...
       python3 -m lsmconv.items todos ITEMS.jsonl...
       python3 -m lsmconv.items select todo [--sort] [--strip DIR
                [--still SNAPSHOT]] ITEMS.jsonl...
       python3 -m lsmconv.items from-lines RULE   (lines on stdin)
"""


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    cmd = argv[0] if argv else None
    args = argv[1:]
    strip, sort, still = None, False, None
    if cmd == "select":
        if not args or args[0] != "todo":
            cmd = None
        args = args[1:]
        if args[:1] == ["--sort"]:
            sort, args = True, args[1:]
        if args[:1] == ["--strip"] and len(args) > 1:
            strip, args = args[1], args[2:]
            if args[:1] == ["--still"] and len(args) > 1:
                still, args = args[1], args[2:]
    if cmd not in ("count", "todos", "select", "from-lines") or \
            (not args and cmd != "from-lines") or (cmd == "from-lines" and len(args) != 1):
        sys.stderr.write(USAGE)
        return exits.USAGE
    try:
        if cmd == "from-lines":
            items = from_lines(sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
                               .splitlines(), args[0])
        else:
            items = [i for p in args for i in load(p)]
    except (OSError, ValueError) as e:
        sys.stderr.write("lsmconv.items: %s\n" % e)
        return exits.USAGE
    if cmd == "count":
        c = counts(items)
        out = "".join("%s %d\n" % (k, c[k]) for k in sorted(c))
    elif cmd == "todos":
        out = "".join("%s:%s: %s\n" % (i.file, i.line, text(i)) for i in todos(items))
    elif cmd == "select":
        sel = todos(items) if sort else [i for i in items if state_of(i) == "todo"]
        sel = [_strip(i, strip) for i in sel]
        out = dumps(still_there(sel, strip, still) if still else sel)
    else:
        out = dumps(items)
    sys.stdout.buffer.write(out.encode("utf-8", "surrogateescape"))
    return exits.DONE


if __name__ == "__main__":
    sys.exit(main())
