# SPDX-License-Identifier: GPL-2.0
"""Text pass after rule 50 (51-yama-ifdef.cocci): the `#ifdef CONFIG_OPTION`
/ `#endif` pairs that rule 50's removal of a module's hand-made stacking
left empty (any option: an empty pair is dead code), and the
`#ifndef CONFIG_OPTION` guards around a module's hook list or its
registration, or around nothing left (4.0's Yama under
CONFIG_SECURITY_YAMA_STACKED; the content stays, an empty block goes) when
the target's Kconfig has no such option (the guard is then always true).  A blank line a removed empty block
leaves right after an opening brace or after another blank line goes too.
Blocks with #else/#elif are not touched; everything else stays byte for
byte.  No option or module is typed here.  SmPL cannot match preprocessor
directives, so this is Python.

    python3 -m lsmconv.yama_ifdef [--target TREE] [--check] FILE...

rewrites each FILE in place and prints one `special` finding per removed
pair (lsmconv.emit's line); --check changes nothing and prints
`FILE:LINE: ...` instead.  TREE defaults to the current directory.
"""
import os
import re
import sys

from lsmconv import cscan, emit, source

set_mode = emit.set_mode

IFDEF = re.compile(r"^[ \t]*#[ \t]*ifdef[ \t]+(CONFIG_\w+)\b")
IFNDEF = re.compile(r"^[ \t]*#[ \t]*(?:ifndef[ \t]+(CONFIG_\w+)\b|if[ \t]+![ \t]*defined[ \t]*\(?[ \t]*"
                    r"(CONFIG_\w+)[ \t]*\)?[ \t]*$)")
# what a guard around a module's registration holds
REGISTRATION = re.compile(r"\b(LSM_HOOK_INIT|security_add_hooks|register_security|"
                          r"security_module_enable|security_operations|security_hook_list)\b")


def module_of(option):
    """The module an option stacks, for messages (lsmconv.yama.module_of)."""
    m = re.match(r"CONFIG_SECURITY_(\w+?)_STACKED$", option)
    return m.group(1).capitalize() if m else "the module"


def target_defines(tree):
    """The Kconfig options of the target's security/: a guard on one of
    them is not dead code and stays."""
    out = set()
    for root, _dirs, files in os.walk(os.path.join(tree, "security")):
        for f in files:
            if f.startswith("Kconfig"):
                out.update("CONFIG_" + m for m in re.findall(
                    r"^\s*(?:menu)?config\s+(\w+)\s*$", source.text(os.path.join(root, f)), re.M))
    return out


def _blocks(lines):
    """(start, end, kind, option) of each ifdef/ifndef CONFIG_ block without
    an else/elif: lines[start] is the directive, lines[end] its endif."""
    out = []
    for i, l in enumerate(lines):
        m = IFDEF.match(l)
        n = IFNDEF.match(l) if not m else None
        if not m and not n:
            continue
        kind, option = ("ifdef", m.group(1)) if m else ("ifndef", n.group(1) or n.group(2))
        j = cscan.group_end(lines, i, stop_at_else=True)
        if j is not None:
            out.append((i, j, kind, option))
    return out


def tidy(text, defines):
    """(new text, [(line, message)]) for a file's text; defines: the
    target's options (target_defines)."""
    lines = text.split("\n")
    drop = set()
    found = []
    for start, end, kind, option in _blocks(lines):
        if any(k in drop for k in range(start, end + 1)):
            continue
        empty = all(not lines[k].strip() for k in range(start + 1, end))
        who = module_of(option)
        if kind == "ifdef" and empty:
            drop.update(range(start, end + 1))
            found.append((start + 1, "empty #ifdef %s block removed (%s registers "
                          "its own hooks in the target)" % (option, who)))
        elif kind == "ifndef" and option not in defines and \
                (empty or REGISTRATION.search("\n".join(lines[start + 1:end]))):
            drop.update((start, end))
            if empty:
                drop.update(range(start, end + 1))
            found.append((start + 1, "#ifndef %s guard removed%s: the target has "
                          "no such option, %s registers like any module"
                          % (option, " with its empty block" if empty else "", who)))
        else:
            continue
        # a removed empty block leaves no blank line behind it right after
        # an opening brace or next to another blank line
        prev = start - 1
        while prev >= 0 and prev in drop:
            prev -= 1
        nxt = end + 1
        if (empty and prev >= 0 and nxt < len(lines) and not lines[nxt].strip() and
                (lines[prev].rstrip().endswith("{") or not lines[prev].strip())):
            drop.add(nxt)
    return "\n".join(l for k, l in enumerate(lines) if k not in drop), found


def run(paths, tree, check=False, out=sys.stdout):
    defines = target_defines(tree)
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError as e:
            sys.stderr.write("yama_ifdef: %s: %s\n" % (path, e.strerror))
            return 2
        new, found = tidy(text, defines)
        if not found:
            continue
        if check:
            for ln, msg in found:
                out.write("%s:%d: %s\n" % (path, ln, msg.replace("removed", "(remove it)", 1)))
            continue
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(new)
        for ln, msg in found:
            out.write(emit.line("special", path, ln, msg) + "\n")
        out.flush()
    return 0


def main(argv):
    return emit.text_pass_main(argv, run, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


_DONE = set()
_DEFINES = {}


def rule_pass(path, tree):
    """51-yama-ifdef.cocci's script rule: the pass on one file, reported in
    the rule's mode (lsmconv.emit.text_pass); the file is not written."""
    if path in _DONE:
        return
    _DONE.add(path)
    if tree not in _DEFINES:
        _DEFINES[tree] = target_defines(tree)
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except OSError:
        return
    new, found = tidy(text, _DEFINES[tree])
    emit.text_pass(path, text, new, [("special", ln, msg) for ln, msg in found])
