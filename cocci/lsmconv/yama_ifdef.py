# SPDX-License-Identifier: GPL-2.0
"""Text pass after rule 50 (51-yama-ifdef.cocci): the
`#ifdef CONFIG_SECURITY_YAMA_STACKED` / `#endif` pairs the Yama removal
left empty, and the `#ifndef CONFIG_SECURITY_YAMA_STACKED` guards of the
module (the content stays, an empty block goes) unless the target's
Kconfig still has the option.  A blank line a removed empty block leaves
right after an opening brace or after another blank line goes too.
Blocks with #else/#elif are not touched; everything else stays byte for
byte.  SmPL cannot match preprocessor directives, so this is Python.

    python3 -m lsmconv.yama_ifdef [--target TREE] [--check] FILE...

rewrites each FILE in place and prints one `special` finding per removed
pair (lsmconv.emit's line); --check changes nothing and prints
`FILE:LINE: ...` instead.  TREE defaults to the current directory.
"""
import os
import re
import sys

from lsmconv import emit, source

set_mode = emit.set_mode

MACRO = "CONFIG_SECURITY_YAMA_STACKED"
IFDEF = re.compile(r"^[ \t]*#[ \t]*ifdef[ \t]+%s\b" % MACRO)
IFNDEF = re.compile(r"^[ \t]*#[ \t]*(?:ifndef[ \t]+%s\b|if[ \t]+![ \t]*defined[ \t]*\(?[ \t]*%s[ \t]*\)?[ \t]*$)"
                    % (MACRO, MACRO))
IF = re.compile(r"^[ \t]*#[ \t]*if")
ELSE = re.compile(r"^[ \t]*#[ \t]*(else|elif)\b")
ENDIF = re.compile(r"^[ \t]*#[ \t]*endif\b")


def target_defines(tree):
    """Does the target tree still have the Kconfig symbol?  Then an
    ifndef guard is not dead code and stays."""
    for root, _dirs, files in os.walk(os.path.join(tree, "security")):
        for f in files:
            if f.startswith("Kconfig") and re.search(
                    r"^\s*config\s+%s\s*$" % MACRO[len("CONFIG_"):],
                    source.text(os.path.join(root, f)), re.M):
                return True
    return False


def _blocks(lines):
    """(start, end, kind) of each ifdef/ifndef MACRO block without an
    else/elif: lines[start] is the directive, lines[end] its endif."""
    out = []
    for i, l in enumerate(lines):
        kind = "ifdef" if IFDEF.match(l) else "ifndef" if IFNDEF.match(l) else None
        if not kind:
            continue
        depth = 0
        for j in range(i + 1, len(lines)):
            if IF.match(lines[j]):
                depth += 1
            elif ENDIF.match(lines[j]):
                if depth == 0:
                    out.append((i, j, kind))
                    break
                depth -= 1
            elif ELSE.match(lines[j]) and depth == 0:
                break
    return out


def tidy(text, defines):
    """(new text, [(line, message)]) for a file's text; defines: the
    target still has the option."""
    lines = text.split("\n")
    drop = set()
    found = []
    for start, end, kind in _blocks(lines):
        if any(k in drop for k in range(start, end + 1)):
            continue
        empty = all(not lines[k].strip() for k in range(start + 1, end))
        if kind == "ifdef" and empty:
            drop.update(range(start, end + 1))
            found.append((start + 1, "empty #ifdef %s block removed (Yama registers "
                          "its own hooks in the target)" % MACRO))
        elif kind == "ifndef" and not defines:
            drop.update((start, end))
            if empty:
                drop.update(range(start, end + 1))
            found.append((start + 1, "#ifndef %s guard removed%s: the target has "
                          "no such option, Yama registers like any module"
                          % (MACRO, " with its empty block" if empty else "")))
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
