// SPDX-License-Identifier: GPL-2.0
///
/// Companion of 50-yama-stacked.cocci: remove the
/// `#ifdef CONFIG_SECURITY_YAMA_STACKED` / `#endif` pairs that the Yama
/// removal left with nothing (or only blank lines) between them, and the
/// `#ifndef CONFIG_SECURITY_YAMA_STACKED` / `#endif` guards of the module
/// (around its hook list and registration; the content stays, an empty
/// block goes), unless the target's Kconfig still has the option.  A
/// blank line that a removed empty block leaves right after an opening
/// brace or after another blank line goes too.  Blocks with `#else`/`#elif` are not
/// touched.  SmPL
/// cannot match preprocessor directives, so this is a text pass written in
/// Python: for each C file spatch visits, a script rule rewrites the file
/// on disk.  The rule file makes no SmPL transformation, so spatch does not
/// write the file afterwards and the text edit stays.  Only empty blocks of
/// exactly that macro are touched; anything else in the file is kept byte
/// for byte.  Each removed pair is reported as `special`; in the report,
/// org and context modes the pairs are only listed.  Needs LSMCONV_TARGET
/// (convert.sh exports it) for the Kconfig check; without it the guards go.
///
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options:
// Keywords: CONFIG_SECURITY_YAMA_STACKED, yama, preprocessor
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os
import re
import sys

MODE = "patch"
DONE = set()
MACRO = "CONFIG_SECURITY_YAMA_STACKED"
IFDEF = re.compile(r"^[ \t]*#[ \t]*ifdef[ \t]+%s\b" % MACRO)
IFNDEF = re.compile(r"^[ \t]*#[ \t]*(?:ifndef[ \t]+%s\b|if[ \t]+![ \t]*defined[ \t]*\(?[ \t]*%s[ \t]*\)?[ \t]*$)"
                    % (MACRO, MACRO))
IF = re.compile(r"^[ \t]*#[ \t]*if")
ELSE = re.compile(r"^[ \t]*#[ \t]*(else|elif)\b")
ENDIF = re.compile(r"^[ \t]*#[ \t]*endif\b")


def _target_defines():
    """Does the target tree still have the Kconfig symbol?  Then an
    ifndef guard is not dead code and stays."""
    tree = os.environ.get("LSMCONV_TARGET")
    if not tree:
        return False
    for root, _dirs, files in os.walk(os.path.join(tree, "security")):
        for f in files:
            if f.startswith("Kconfig"):
                try:
                    with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
                        if re.search(r"^\s*config\s+%s\s*$" % MACRO[len("CONFIG_"):],
                                     fh.read(), re.M):
                            return True
                except OSError:
                    pass
    return False


TARGET_DEFINES = _target_defines()


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


def tidy(path):
    if path in DONE:
        return
    DONE.add(path)
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except OSError:
        return
    lines = text.split("\n")
    drop = set()
    found = []   # (line, message)
    for start, end, kind in _blocks(lines):
        if any(k in drop for k in range(start, end + 1)):
            continue
        empty = all(not lines[k].strip() for k in range(start + 1, end))
        if kind == "ifdef" and empty:
            drop.update(range(start, end + 1))
            found.append((start + 1, "empty #ifdef %s block removed (Yama registers "
                          "its own hooks in the target)" % MACRO))
        elif kind == "ifndef" and not TARGET_DEFINES:
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
    if not found:
        return
    if MODE != "patch":
        # report/org/context: say where, change nothing
        for ln, msg in found:
            print("%s:%d: %s" % (path, ln, msg.replace("removed", "(remove it)", 1)))
        return
    new = "\n".join(l for k, l in enumerate(lines) if k not in drop)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(new)
    for ln, msg in found:
        print("LSMCONV\tspecial\t%s\t%d\t%s" % (path, ln, msg))
    sys.stdout.flush()

@initialize:python depends on !patch@
@@
MODE = "other"

@fns@
identifier fn;
position p;
@@

 fn@p(...) {...}

@script:python@
p << fns.p;
@@

tidy(p[0].file)
