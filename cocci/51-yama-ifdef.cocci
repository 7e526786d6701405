// SPDX-License-Identifier: GPL-2.0
///
/// Companion of 50-yama-stacked.cocci: remove the
/// `#ifdef CONFIG_SECURITY_YAMA_STACKED` / `#endif` pairs that the Yama
/// removal left with nothing (or only blank lines) between them.  SmPL
/// cannot match preprocessor directives, so this is a text pass written in
/// Python: for each C file spatch visits, a script rule rewrites the file
/// on disk.  The rule file makes no SmPL transformation, so spatch does not
/// write the file afterwards and the text edit stays.  Only empty blocks of
/// exactly that macro are touched; anything else in the file is kept byte
/// for byte.  Each removed pair is reported as `special`; in the report,
/// org and context modes the pairs are only listed.
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
import re
import sys

MODE = "patch"
DONE = set()
EMPTY = re.compile(r"^[ \t]*#[ \t]*ifdef[ \t]+CONFIG_SECURITY_YAMA_STACKED\b[^\n]*\n"
                   r"(?:[ \t]*\n)*"
                   r"[ \t]*#[ \t]*endif\b[^\n]*\n", re.M)


def tidy(path):
    if path in DONE:
        return
    DONE.add(path)
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except OSError:
        return
    lines = [text.count("\n", 0, m.start()) + 1 for m in EMPTY.finditer(text)]
    if not lines:
        return
    if MODE != "patch":
        # report/org/context: say where, change nothing
        for ln in lines:
            print("%s:%d: empty #ifdef CONFIG_SECURITY_YAMA_STACKED block "
                  "(remove it)" % (path, ln))
        return
    new = EMPTY.sub("", text)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(new)
    for ln in lines:
        print("LSMCONV\tspecial\t%s\t%d\tempty #ifdef CONFIG_SECURITY_YAMA_STACKED "
              "block removed (Yama registers its own hooks in the target)"
              % (path, ln))
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
