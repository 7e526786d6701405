# SPDX-License-Identifier: GPL-2.0
"""Attribute the compile errors of a ported module to the todos of its port.

`make port` (qemu-boot/port.sh) builds a converted module inside a kernel
tree.  Every compiler error in the module's directory must be explained by a
todo of the port (its items, lsmconv.items): the same file and line, or the same function (the
function gcc names in "In function 'f'", or the one around the todo's line,
or a function the todo's text names).  An error no todo explains is "not
reported"; when it concerns the LSM API it means the report gave a false
all-clear, and the run fails.

usage: python3 -m lsmconv.buildattr --log BUILD.LOG --items ITEMS.jsonl
           --module-dir security/NAME --src DIR [--tsv FILE --show N NAME]
prints one line per error:
    reported<TAB>file:line<TAB>error<TAB>todo
    not-reported<TAB>file:line<TAB>error<TAB>lsm-api|other
(into FILE with --tsv) and exits 0 when every LSM-API error is reported, 1
otherwise, 2 on usage.  --show N NAME prints what make port shows instead:
"  NAME: R error(s) named by a todo, U not reported", every error not
reported, the first N reported ones with their todo, and how many more the
TSV holds (make port printed them through `| head`, which under pipefail
killed it with SIGPIPE when there were many).
"""

import argparse
import os
import re
import sys

from lsmconv import cscan, items as I

# An error is about the LSM API when its text or its source line names it.
LSM_API = re.compile(
    r'security_operations|security_hook_list|security_hook_heads|LSM_HOOK_INIT|'
    r'DEFINE_LSM|lsm_info|lsm_blob_sizes|register_security|security_initcall|'
    r'security_module_enable|security_add_hooks|security_fixup_ops|secondary_ops|'
    r'\bcap_[a-z_]+|->security\b|\bi_security\b|\bf_security\b|\bs_security\b|'
    r'\bsk_security\b|security_list_options|_hooks\b')

ERROR = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<msg>.*)$')
IN_FUNC = re.compile(r"^(?P<file>[^:\s]+): In function ['‘](?P<func>[A-Za-z_]\w*)['’]:")


def load_todos(path):
    """[(basename, line, text)] of the todo items of an items.jsonl (the
    text as the report shows it: `[check] message`)."""
    return [(os.path.basename(i.file), int(i.line), I.text(i)) for i in I.todos(I.load(path))]


def function_at(funcs, line):
    """The name of the function (lsmconv.cscan.functions) around line, or None."""
    f = cscan.function_at(funcs, line)
    return f.name if f else None


def parse_errors(log_text, module_dir):
    """[(basename, line, function or None, message)] for errors in module_dir."""
    errors = []
    func = {}
    marker = module_dir.rstrip('/') + '/'
    for raw in log_text.splitlines():
        m = IN_FUNC.match(raw)
        if m and marker in m.group('file'):
            func[m.group('file')] = m.group('func')
            continue
        if ': At top level:' in raw:
            func[raw.split(':', 1)[0]] = None
            continue
        m = ERROR.match(raw)
        if m and marker in m.group('file'):
            errors.append((os.path.basename(m.group('file')), int(m.group('line')),
                           func.get(m.group('file')), m.group('msg')))
    return errors


def attribute(errors, todos, sources):
    """Yield (error, todo or None, is_lsm_api) per error.

    sources maps a basename to the text of the built file (for the function
    around a todo and the source line of an error)."""
    spans = {f: cscan.functions(t) for f, t in sources.items()}
    lines = {f: t.splitlines() for f, t in sources.items()}
    todo_funcs = []
    for f, ln, detail in todos:
        names = set(re.findall(r'[A-Za-z_]\w*', detail))
        around = function_at(spans.get(f, []), ln)
        todo_funcs.append((f, ln, detail, around, names))
    for err in errors:
        f, ln, fn, msg = err
        src = ''
        if f in lines and 0 < ln <= len(lines[f]):
            src = lines[f][ln - 1]
        if fn is None:
            fn = function_at(spans.get(f, []), ln)
        hit = None
        for tf, tl, detail, around, names in todo_funcs:
            if tf != f:
                continue
            if tl == ln or (fn is not None and (fn == around or fn in names)):
                hit = (tf, tl, detail)
                break
        if hit is None:
            # An error on a line (an initializer entry, a call) that uses a
            # function of the module a todo names.
            defined = {fn.name for fn in spans.get(f, [])}
            used = set(re.findall(r'[A-Za-z_]\w*', src)) & defined
            for tf, tl, detail, around, names in todo_funcs:
                if tf == f and used & names:
                    hit = (tf, tl, detail)
                    break
        api = bool(LSM_API.search(msg) or LSM_API.search(src))
        yield err, hit, api


def module_sources(d):
    """{name: text} of the C sources and headers directly in directory d."""
    out = {}
    for n in sorted(os.listdir(d)):
        if n.endswith(('.c', '.h')):
            with open(os.path.join(d, n), errors='replace') as fh:
                out[n] = fh.read()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--log', required=True)
    ap.add_argument('--items', required=True, help='the port\'s items.jsonl')
    ap.add_argument('--module-dir', required=True)
    ap.add_argument('--src', required=True, help='directory of the built module sources')
    ap.add_argument('--tsv', help='write the TSV lines here (default: stdout)')
    ap.add_argument('--show', nargs=2, metavar=('N', 'NAME'),
                    help='print the summary make port shows, at most N reported errors')
    a = ap.parse_args(argv)
    if a.show and (not a.tsv or not a.show[0].isdigit()):
        ap.error('--show N NAME needs --tsv and a number N')
    try:
        with open(a.log, errors='replace') as fh:
            log = fh.read()
        todos = load_todos(a.items)
        sources = module_sources(a.src)
    except (OSError, ValueError) as e:
        print(f'buildattr: {e}', file=sys.stderr)
        return 2
    bad = 0
    rows = []
    for (f, ln, _fn, msg), hit, api in attribute(parse_errors(log, a.module_dir),
                                                 todos, sources):
        if hit:
            rows.append(('reported', f'{f}:{ln}', msg, f'{hit[0]}:{hit[1]}: {hit[2]}'))
        else:
            rows.append(('not-reported', f'{f}:{ln}', msg, 'lsm-api' if api else 'other'))
            bad += api
    tsv = ''.join('\t'.join(r) + '\n' for r in rows)
    if a.tsv:
        try:
            with open(a.tsv, 'w') as fh:
                fh.write(tsv)
        except OSError as e:
            print(f'buildattr: {e}', file=sys.stderr)
            return 2
    else:
        sys.stdout.write(tsv)
    if a.show:
        sys.stdout.write(summary(rows, int(a.show[0]), a.show[1], a.tsv))
    return 1 if bad else 0


def summary(rows, most, name, tsv):
    """What make port shows of an attribution: the counts, every error not
    reported, the first `most` reported ones with their todo."""
    rep = [r for r in rows if r[0] == 'reported']
    out = [f'  {name}: {len(rep)} error(s) named by a todo, {len(rows) - len(rep)} not reported']
    out += ['    not reported: ' + '\t'.join(r[1:]) for r in rows if r[0] != 'reported']
    for r in rep[:most]:
        out += [f'    {r[1]}: {r[2]}', f'      <- todo {r[3]}']
    if len(rep) > most:
        out.append(f'    ... {len(rep) - most} more error(s) named by a todo: {tsv}')
    return ''.join(l + '\n' for l in out)


if __name__ == '__main__':
    sys.exit(main())
