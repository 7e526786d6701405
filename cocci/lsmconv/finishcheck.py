# SPDX-License-Identifier: GPL-2.0
"""Check that a hand-finished port differs from the tool output only where
the port report's todos said to edit.

    python3 -m lsmconv.finishcheck --tool DIR --finished DIR --items ITEMS.jsonl
                                   [--edits EDITS.tsv]

Every hunk of `diff TOOL/F FINISHED/F` (for each .c/.h file of either side)
must be explained by a todo of the port (its items, lsmconv.items): it
touches a line a todo names (file:line of the tool
output), lies in a function around a todo's line or named in a todo's text,
changes a line that uses a function a todo names or is in, changes a line
with an identifier (one with an underscore) the todo's text names (the
`NAME_blob_sizes` a blob todo tells you to declare), or contains a line
matching a row of EDITS.tsv (`file<TAB>text<TAB>reason`: the edits the
report does not name, each with its reason).  Prints one line per hunk,

    named<TAB>file:line<TAB>first changed line<TAB>todo or edits row
    unnamed<TAB>file:line<TAB>first changed line

and exits 0 when every hunk is explained, 1 otherwise, 2 on usage errors.
"""

import argparse
import difflib
import os
import re
import sys

from lsmconv import buildattr, cscan

IDENT = re.compile(r'[A-Za-z_]\w*')


def read_edits(path):
    rows = []
    if not path or not os.path.exists(path):
        return rows
    with open(path) as fh:
        for line in fh:
            if not line.strip() or line.startswith('#'):
                continue
            parts = line.rstrip('\n').split('\t')
            if len(parts) < 3 or not parts[2].strip():
                raise ValueError(f'{path}: want file<TAB>text<TAB>reason: {line!r}')
            rows.append((parts[0], parts[1], parts[2]))
    return rows


def hunks(old, new):
    """[(first old line, old lines, new lines)] of the differences, 1-based."""
    a = old.splitlines()
    b = new.splitlines()
    out = []
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == 'equal':
            continue
        out.append((i1 + 1, a[i1:i2], b[j1:j2]))
    return out


def check(tool_text, fin_text, fname, todos, edits):
    """Yield (line, first changed line, explanation or None) per hunk."""
    spans = cscan.functions(tool_text)
    defined = {f.name for f in spans}
    mine = []
    for f, ln, detail in todos:
        if f != fname:
            continue
        names = set(IDENT.findall(detail))
        mine.append((ln, detail, buildattr.function_at(spans, ln), names))
    for first, olds, news in hunks(tool_text, fin_text):
        last = first + max(len(olds), 1) - 1
        changed = olds + news
        shown = (changed[0] if changed else '').strip()
        why = None
        fn = buildattr.function_at(spans, first) or buildattr.function_at(spans, last)
        used = set()
        for line in changed:
            used |= set(IDENT.findall(line)) & defined
        idents = set()
        for line in changed:
            idents |= {w for w in IDENT.findall(line) if '_' in w.strip('_')}
        for ln, detail, around, names in mine:
            if first - 1 <= ln <= last + (0 if olds else 1) or \
                    (fn is not None and (fn == around or fn in names)) or \
                    (used & (names | {around})) or (idents & names):
                why = f'{fname}:{ln}: {detail}'
                break
        if why is None:
            for f, text, reason in edits:
                if f == fname and any(text in line for line in changed):
                    why = f'EDITS.tsv: {text} ({reason})'
                    break
        yield first, shown, why


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--tool', required=True)
    ap.add_argument('--finished', required=True)
    ap.add_argument('--items', required=True, help='the port\'s items.jsonl')
    ap.add_argument('--edits')
    a = ap.parse_args(argv)
    try:
        todos = buildattr.load_todos(a.items)
        edits = read_edits(a.edits)
        tool, finished = buildattr.module_sources(a.tool), buildattr.module_sources(a.finished)
    except (OSError, ValueError) as e:
        print(f'finishcheck: {e}', file=sys.stderr)
        return 2
    bad = 0
    for n in sorted(set(tool) | set(finished)):
        for line, shown, why in check(tool.get(n, ''), finished.get(n, ''), n, todos, edits):
            if why:
                print(f'named\t{n}:{line}\t{shown}\t{why}')
            else:
                print(f'unnamed\t{n}:{line}\t{shown}')
                bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
