# SPDX-License-Identifier: GPL-2.0
"""Honest results for convert.sh file|tree (docs/converter.md, "Guarantees").

Three checks the driver (lsmconv.driver) makes before it writes anything:

    failure(rc, text) -> str or None
        whether a spatch run failed, from its exit status rc (negative:
        killed by that signal) and what it printed (stdout and stderr):
        a non-zero exit, a kill, or one of the lines spatch prints when it
        gives up on a file and still exits 0 (`EXN: Stack overflow in
        FILE`, `Fatal error: exception ...`, `Out of memory`).  The
        text says what happened (spatch's own line); None when it ran
        through.
    failed_files(text) -> [path]
        the files an `EXN: ... in FILE` line names

    check(items, results, near=NEAR) -> [(item, why)]
        every change an item claims must be in the output (results: the
        user's path -> (bytes read, bytes written)) at its line, give or
        take `near` lines; the claims with their check are CLAIMS below.
        A claim without its change is a defect of the run: the driver
        exits 3, naming it, and writes nothing.

    hidden(text, rules) -> [(line, detail)]
        legacy LSM API the rules cannot see: inside a macro definition
        (spatch does not read the bodies of `#define`s), for the rules
        that ran (WORDS: rule id -> the legacy words it converts), and an
        object-like macro that initializes a struct security_operations
        (rule 20).  Each is a todo of the driver (file:line, what to do).

    left_items(texts, rules, items, target) -> [Item]
        legacy API of the rules that ran still in the output that no todo
        names (LEFT: the construct each rule converts; in the function
        holding it, or on its line outside functions): a todo each

    one_section(line)
        a hook list's declaration with __lsm_ro_after_init and no other
        section attribute (__read_mostly: gcc's section type conflict)
    raise_stack()
        spatch's stack limit (SPATCH_STACK), set once by the driver

stdlib only.
"""
import re
import resource
import signal

from lsmconv import cscan, form
from lsmconv import hooks as H
from lsmconv import items as I

# What spatch prints, at the start of a line, when it gives up on a file
# (it prints `EXN: ...` and goes on with exit 0) or on the whole run.
FATAL = re.compile(r"^(?:EXN: .*|Fatal error: .*|Stack overflow.*|Out of memory.*)$", re.M)
EXN_FILE = re.compile(r"^EXN: .* in (\S+)\s*$", re.M)

# How many lines an item's line may be off from its change (a line in a
# changed run is mapped to the same offset in the new run, lsmconv.linemap).
NEAR = 3


def failure(rc, text):
    """What went wrong with a spatch run, or None (see the docstring)."""
    m = FATAL.search(text)
    said = m.group(0).strip() if m else None
    if said and len(said) > 300:
        said = said[:300] + "..."
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = "signal %d" % -rc
        return "killed by %s%s" % (name, ": " + said if said else "")
    if rc != 0:
        return "exit %d%s" % (rc, ": " + said if said else "")
    return said


def failed_files(text):
    return sorted(set(EXN_FILE.findall(text)))


# --- claims --------------------------------------------------------------------

def _w(s):
    return re.escape(s)


# (kind, message pattern, [checks]); a check is (where, present, pattern,
# text): where "near" (the item's line, give or take NEAR) or "file"
# (anywhere in the file's code: comments and literals blanked); present
# True: the pattern must match there, False: it must not; text names it in
# the message.  Pattern and text get the message's groups (str.format).
CLAIMS = (
    ("entry", r"LSM_HOOK_INIT\((?P<h>\w+),",
     [("near", True, r"LSM_HOOK_INIT\(\s*{h}\s*,", "LSM_HOOK_INIT({h}, ...)")]),
    ("call", r"-> call_(?P<v>int|void)_hook\((?P<h>\w+)",
     [("near", True, r"call_{v}_hook\(\s*{h}\b", "call_{v}_hook({h}, ...)")]),
    ("reg", r"^register_security\(.*\) -> (?P<f>\w+)\((?P<a>\w+)",
     [("near", True, r"\b{f}\(\s*{a}\b", "{f}({a}, ...)")]),
    ("reg", r"^security_module_enable\(&(?P<o>\w+)\) check removed",
     [("file", False, r"\bsecurity_module_enable\s*\(\s*&\s*{o}\b",
       "security_module_enable(&{o})")]),
    ("reg", r"^security_module_enable\(&(?P<o>\w+)\) -> security_module_enable\(",
     [("near", True, r"\bsecurity_module_enable\s*\(\s*\"", 'security_module_enable("...")'),
      ("file", False, r"\bsecurity_module_enable\s*\(\s*&\s*{o}\b",
       "security_module_enable(&{o})")]),
    ("reg", r"^reset_security_ops\(\) -> (?P<f>\w+)\(",
     [("near", True, r"\b{f}\s*\(", "{f}(...)")]),
    ("reg", r"^security_initcall\((?P<fn>\w+)\) -> DEFINE_LSM\((?P<l>\w+)\)",
     [("near", True, r"\bDEFINE_LSM\(\s*{l}\s*\)", "DEFINE_LSM({l})"),
      ("file", False, r"\bsecurity_initcall\s*\(\s*{fn}\s*\)", "security_initcall({fn})")]),
    ("reg", r"^security_initcall\((?P<fn>\w+)\) removed",
     [("file", False, r"\bsecurity_initcall\s*\(\s*{fn}\s*\)", "security_initcall({fn})")]),
    ("reg", r"^label (?P<l>\w+)(?: and its cleanup)? removed",
     [("near", False, r"^[ \t]*{l}[ \t]*:(?!:)", "the label {l}:")]),
    ("special", r"^(?P<y>\w+)\(\) in \w+: \w+ ad hoc stacking removed",
     [("near", False, r"\b{y}\s*\(", "the call {y}()")]),
)
_CLAIMS = [(k, re.compile(p), c) for k, p, c in CLAIMS]


def _lines(data):
    return cscan.code_text(data.decode("utf-8", "surrogateescape")).split("\n")


def check(items, results, near=NEAR):
    """[(item, why)]: the items whose claimed change is not in the output
    (see the docstring).  A file record "changed"/"unchanged" must agree
    with the bytes; every other finding of state changed whose message is
    a claim of CLAIMS is checked against the output at its line."""
    bad, code = [], {}
    for it in items:
        if it.file not in results:
            continue
        before, after = results[it.file]
        if it.kind == "file":
            if (it.message == "changed") != (before != after):
                bad.append((it, "the file record says %s, the output is %s"
                            % (it.message, "the input" if before == after else "changed")))
            continue
        if it.kind in ("todo", "parse"):
            continue
        for kind, pat, checks in _CLAIMS:
            m = pat.search(it.message) if kind == it.kind else None
            if not m:
                continue
            if it.file not in code:
                code[it.file] = _lines(after)
            lines = code[it.file]
            args = {k: _w(v) for k, v in m.groupdict().items()}
            for where, present, cpat, what in checks:
                rx = re.compile(cpat.format(**args), re.M)
                if where == "near" and it.line > 0:
                    text = "\n".join(lines[max(it.line - 1 - near, 0):it.line + near])
                else:
                    text = "\n".join(lines)
                if bool(rx.search(text)) != present:
                    bad.append((it, "%s %s %s" % (
                        "no" if present else "still", what.format(**m.groupdict()),
                        "within %d lines of line %d" % (near, it.line)
                        if where == "near" and it.line > 0 else "in the file")))
                    break
            break
    return bad


# --- what the rules cannot see --------------------------------------------------

# The legacy words each rule converts (rule id -> words); a macro body that
# holds one of them is named when that rule ran.
WORDS = {
    "10": ("secondary_ops",),
    "11": ("register_security", "security_module_enable", "reset_security_ops"),
    "12": ("security_initcall",),
    "20": ("security_operations",),
    "30": ("security_ops",),
}


def hidden(text, rules):
    """[(line, detail)]: a `#define` whose body holds a legacy word of a
    rule that ran (rules: ids); the macro that defines the word itself
    (`#define security_initcall(fn) ...`) is not one."""
    words = sorted({w for r in rules for w in WORDS.get(r, ())})
    if not words:
        return []
    rx = re.compile(r"\b(%s)\b" % "|".join(words))
    lines = cscan.code_text(text).split("\n")
    out, i = [], 0
    while i < len(lines):
        body, j = cscan.logical_line(lines, i)
        m = re.match(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", body)
        if m and m.group(1) not in words:
            w = rx.search(body[m.end():])
            if w:
                out.append((i + 1, "legacy LSM API in the body of macro %s (%s): the rules "
                            "do not see inside #define, so nothing it expands to was "
                            "converted; convert the macro by hand (a struct "
                            "security_operations becomes a struct security_hook_list array "
                            "of LSM_HOOK_INIT() entries, see docs/converter.md)"
                            % (m.group(1), w.group(1))))
        i = j + 1
    if "20" in rules:
        out += _macro_inits(lines)
    return sorted(out)


def _macro_inits(lines):
    """[(line, detail)]: an object-like macro that is the initializer of a
    struct security_operations (`static struct security_operations x_ops
    = X_OPS_INIT;`): the rules see neither its entries nor a list to turn
    them into."""
    code = "\n".join(lines)
    used = {}
    for m in re.finditer(r"\bstruct\s+security_operations\s+(\w+)(?:\s+__\w+)*\s*=\s*"
                         r"(\w+)\s*;", cscan.blank_directives(code)):
        used.setdefault(m.group(2), (m.group(1), code.count("\n", 0, m.start()) + 1))
    out, i = [], 0
    while used and i < len(lines):
        body, j = cscan.logical_line(lines, i)
        m = re.match(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(?![\w(])", body)
        if m and m.group(1) in used:
            ops, at = used[m.group(1)]
            ents = ["%s = %s" % e for e in re.findall(r"(\.\w+)\s*=\s*(\w+)", body[m.end():])
                    if e[0] != ".name" and e[1] not in ("NULL", "0")]
            out.append((i + 1, "macro %s is the initializer of struct security_operations %s "
                        "(line %d), and the rules do not see inside #define: its entries "
                        "(%s) are not converted; write the hook list by hand (a struct "
                        "security_hook_list array of LSM_HOOK_INIT(hook, fn) entries, named "
                        "as the registration below names it)"
                        % (m.group(1), ops, at, ", ".join(ents) or "none")))
        i = j + 1
    return out


# --- an output gcc refuses ----------------------------------------------------------

# Section attributes an ops struct may carry (both in include/linux/cache.h):
# beside __lsm_ro_after_init, the section of the converted hook list, gcc
# fails with "section type conflict".
SECTIONS = re.compile(r"[ \t]*\b(?:__read_mostly|__ro_after_init)\b[ \t]*")


def one_section(line):
    """A hook list's declaration line with __lsm_ro_after_init and no other
    section attribute (the ops struct's __read_mostly goes)."""
    if not re.search(r"\b__lsm_ro_after_init\b", line) or not SECTIONS.search(line):
        return line
    return SECTIONS.sub(lambda m: " " if m.start() and m.end() < len(line) else "",
                        line).lstrip(" ")


# --- spatch's stack ---------------------------------------------------------------

# spatch (OCaml) recurses over the syntax tree: a 5 MB function overflows
# the usual 8 MiB stack (`EXN: Stack overflow`) and converts with 1 GiB.
SPATCH_STACK = 1 << 30


def raise_stack():
    """Raise this process's soft stack limit (inherited by spatch) to
    SPATCH_STACK, or the hard limit when that is lower; never lower it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    want = SPATCH_STACK if hard == resource.RLIM_INFINITY else min(hard, SPATCH_STACK)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_STACK, (want, hard))
        except (ValueError, OSError):
            pass


# --- legacy left that no todo names ---------------------------------------------

# What each rule converts, as it looks in C (comments and literals blanked),
# and where: "func" inside a function body only (a call; outside one it is
# a prototype or a definition), "any" anywhere.  A match left in the output
# that no todo of its function (or, outside functions, of its line) names
# is a todo of the driver.
LEFT = {
    "11": ("func", r"\b(?:register_security\s*\(|security_module_enable\s*\(\s*&|"
                   r"reset_security_ops\s*\()"),
    "12": ("any", r"^[ \t]*security_initcall\s*\("),
    "20": ("any", r"\bstruct\s+security_operations\s+\w+(?:\s+__\w+)*\s*="),
    # a declared object or pointer (`static struct security_operations
    # *secondary_ops;`): only on a target without struct security_operations
    # (lsm_hook_defs.h), where it cannot compile; not security.c's own
    # `security_ops` (a definition, not a module's extern), whose calls rule
    # 30 converts and the series removes
    "10": ("any", r"^[ \t]*(?:(?:static|extern|const)\s+)*struct\s+security_operations\s*"
                  r"(?:\*\s*)*(?:const\s+)?\w+\s*(?:;|\[|=|,)"),
}
# (not rule 30's `security_ops->hook(`: a parameter or local of another type
# may have the name, and only the rule knows the type: tests/cocci 45)


def unnamed(text, rules, todo_lines):
    """[(line, what)]: the legacy constructs of the rules that ran (LEFT)
    still in text (a converted file), outside #define lines, that no todo
    names: none in the function holding it, none on its line outside
    functions (todo_lines: 1-based)."""
    code = cscan.blank_directives(cscan.code_text(text))
    funcs = None
    out = []
    for r in rules:
        if r not in LEFT:
            continue
        scope, pat = LEFT[r]
        for m in re.finditer(pat, code, re.M):
            if funcs is None:
                funcs = cscan.functions(code)
            line = code.count("\n", 0, m.start()) + 1
            f = cscan.function_at(funcs, line)
            if f is not None and f.open is not None and m.start() < f.open:
                f = None    # the function's own header (a definition)
            if f is None and scope == "func":
                continue
            if f is not None and any(f.first <= t <= f.last for t in todo_lines):
                continue
            if f is None and line in todo_lines:
                continue
            if any(line == o[0] for o in out):
                continue
            if r == "10" and re.search(r"\bsecurity_ops\s*\S$", m.group(0)) and \
                    not re.match(r"\s*extern\b", m.group(0)):
                continue    # the framework's own pointer (security.c: the forward steps)
            out.append((line, re.sub(r"\s+", " ", m.group(0)).strip()))
    return sorted(out)


# the rule of left_items()' todos (lsmconv.items): convert.sh port leaves
# them to its own sweep, which names the same lines with more
LEFT_RULE = "driver-left"


def left_items(texts, rules, items, target):
    """The driver's todos for unnamed(): texts {user's path: converted
    text}, rules the ids that ran, items the run's items so far.  A target
    without DEFINE_LSM() (before 5.1: lsmconv.form) keeps security_initcall()
    (rule 12 leaves it on purpose)."""
    if not form.define_lsm(target):
        rules = [r for r in rules if r != "12"]
    src = H.source_of(target)
    if not (src and src.endswith("lsm_hook_defs.h")):
        rules = [r for r in rules if r != "10"]
    todo = {}
    for it in items:
        if it.kind == "todo":
            todo.setdefault(it.file, set()).add(it.line)
    out = []
    # a registration of a hook list no output defines while its ops struct
    # is still defined in the file (not converted: a macro initializer); an
    # ops struct of another file is registered by name (docs/converter.md)
    defined = "\n".join(cscan.code_text(t) for t in texts.values())
    for it in items:
        m = re.match(r"^register_security\(&(\w+)\) -> security_add_hooks\((\w+)",
                     it.message) if it.kind == "reg" and it.file in texts else None
        if m and not re.search(r"\b%s\s*\[" % re.escape(m.group(2)), defined) and \
                re.search(r"\bstruct\s+security_operations\s+%s\b[^;(]*=" % re.escape(m.group(1)),
                          cscan.code_text(texts[it.file])):
            out.append(I.Item(it.file, it.line, "todo", None,
                              "security_add_hooks(%s, ...) registers %s[], which no converted "
                              "file defines (its ops struct was not turned into a hook list): "
                              "define it by hand" % (m.group(2), m.group(2)), "driver"))
            todo.setdefault(it.file, set()).add(it.line)
    for path, text in texts.items():
        for line, what in unnamed(text, rules, todo.get(path, set())):
            out.append(I.Item(path, line, "todo", None,
                              "legacy LSM API left that no rule converted or named: `%s` (a "
                              "shape or a context the rules do not match): convert it by hand"
                              % what, LEFT_RULE))
    return out
