# SPDX-License-Identifier: GPL-2.0
"""Attribute the compile errors of a ported module to the todos of its port.

`make port` (verify/port.sh) builds a converted module inside a kernel
tree.  Every compiler error in the module's directory must be explained by a
todo of the port (its items, lsmconv.items).  An error is explained by a
todo, in this order (the `how` column):
  line        the same file and line;
  listed      a line the todo lists as FILE:LINE (the uses of an ops object);
  function    the same function: the one gcc names in "In function 'f'" or
              the one around the todo's line (same file), or one the todo's
              text names (any file of the module: an error at a definition
              goes to the todo at its use);
  definition  the error is at the definition of an object the todo names
              (a variable, an array, any file of the module);
  use         the error's line uses a function or object of the module that
              a todo names (any file);
  cascade     the error is inside a hook list (`struct security_hook_list
              X[] = { ... }`) after an entry with a todo, and it is one gcc
              gives for the entries that follow an unconverted one: its
              note says it was initializing another entry or a member of
              struct security_hook_list other than the hook ("near
              initialization for 'x_hooks[0].list.pprev'"; the members are
              read from the target with --target), it names such a member's
              type, or the initializer's shape no longer matches (excess
              elements, braces, a field name not in the record);
  header      an undeclared name (implicit declaration, undeclared, unknown
              type, incomplete type) in a file that includes, directly or
              through the module's own headers, a header the target does not
              have: make port compiles with an empty stub for it, so what the
              module used from it is undeclared (the include todo);
              names of the LSM API are never explained this way.
An error gcc places in a header of the target, in the expansion of a macro
the module uses (LSM_HOOK_INIT), counts at the module's line that uses it.
An error no todo explains is "not reported"; when it concerns the LSM API
it means the report gave a false all-clear, and the run fails.  A fatal
error (gcc stops the file there) is also listed as "not-compiled": the
errors after it are unknown, and make port says the module was not compiled.

usage: python3 -m lsmconv.buildattr --log BUILD.LOG --items ITEMS.jsonl
           --module-dir security/NAME --src DIR [--target TREE]
           [--tsv FILE --show N NAME]
prints one line per error:
    reported<TAB>file:line<TAB>error<TAB>todo<TAB>how
    not-reported<TAB>file:line<TAB>error<TAB>lsm-api|other
    not-compiled<TAB>file:line<TAB>error<TAB>fatal
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
from collections import namedtuple

from lsmconv import cscan, items as I, source

# An error is about the LSM API when its text or its source line names it.
LSM_API = re.compile(
    r'security_operations|security_hook_list|security_hook_heads|LSM_HOOK_INIT|'
    r'DEFINE_LSM|lsm_info|lsm_blob_sizes|register_security|security_initcall|'
    r'security_module_enable|security_add_hooks|security_fixup_ops|secondary_ops|'
    r'\bcap_[a-z_]+|->security\b|\bi_security\b|\bf_security\b|\bs_security\b|'
    r'\bsk_security\b|security_list_options|_hooks\b')

ERROR = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):(?:\d+:)? (?P<fatal>fatal )?error: (?P<msg>.*)$')
IN_FUNC = re.compile(r"^(?P<file>[^:\s]+): In function ['‘](?P<func>[A-Za-z_]\w*)['’]:")
NOTE = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):(?:\d+:)? note: (?P<msg>.*)$')
NEAR = re.compile(r"\(near initialization for ['‘](?P<what>[^'’]+)['’]\)")
EXPANSION = re.compile(r"in expansion of macro ['‘](?P<macro>\w+)['’]")
OTHER = re.compile(r'^[^:\s]+:\d+:(?:\d+:)? (warning|error|fatal error):')

# An error: file (basename), line, the function gcc names or None, the
# message, whether it is fatal, the object gcc was initializing when it
# says so ("x_hooks[2].head") or None.
Error = namedtuple('Error', 'file line func msg fatal near')

# A name the compiler does not know (what an empty stub of a missing header
# leaves undeclared).
UNDECLARED = re.compile(
    r"implicit declaration of function ['‘](\w+)|['‘](\w+)['’] undeclared|"
    r"unknown type name ['‘](\w+)|storage size of ['‘](\w+)['’] isn.t known|"
    r"(?:invalid use of undefined|incomplete) type ['‘](?:const )?(?:struct |union |enum )?(\w+)|"
    r"field ['‘](\w+)['’] has incomplete type|"
    r"has initializer but incomplete type")

# What gcc says about the shape of an initializer whose braces and
# elements no longer match (the entries after an unconverted one).
CASCADE = re.compile(
    r"excess elements in (struct|union|scalar|array) initializer|braces around scalar "
    r"initializer|extra brace group at end of initializer|missing braces around initializer|"
    r"field name not in record or union initializer|positional initialization of field|"
    r"has no member named")

# struct security_hook_list of 6.1, when no target is given: (member, type)
DEFAULT_MEMBERS = (("list", "struct hlist_node"), ("head", "struct hlist_head *"),
                   ("hook", "union security_list_options"), ("lsm", "const char *"))


def load_todos(path):
    """[(basename, line, text)] of the todo items of an items.jsonl (the
    text as the report shows it: `[check] message`)."""
    return [(os.path.basename(i.file), int(i.line), I.text(i)) for i in I.todos(I.load(path))]


def function_at(funcs, line):
    """The name of the function (lsmconv.cscan.functions) around line, or None."""
    f = cscan.function_at(funcs, line)
    return f.name if f else None


def parse_errors(log_text, module_dir):
    """[Error] for the errors in module_dir.  An error gcc places in a
    header of the target, in the expansion of a macro the module uses
    (LSM_HOOK_INIT), is placed where the module uses the macro."""
    errors = []
    func = {}
    marker = module_dir.rstrip('/') + '/'
    pending = None          # an error outside the module, waiting for its expansion note
    last = None             # the module's last error, for its near-initialization note
    for raw in log_text.splitlines():
        m = IN_FUNC.match(raw)
        if m and marker in m.group('file'):
            func[m.group('file')] = m.group('func')
            continue
        if ': At top level:' in raw:
            func[raw.split(':', 1)[0]] = None
            continue
        m = ERROR.match(raw)
        if m:
            if marker in m.group('file'):
                errors.append(Error(os.path.basename(m.group('file')), int(m.group('line')),
                                    func.get(m.group('file')), m.group('msg'),
                                    bool(m.group('fatal')), None))
                last, pending = len(errors) - 1, None
            else:
                pending, last = m, None
            continue
        m = NOTE.match(raw)
        if m:
            e = EXPANSION.search(m.group('msg'))
            if pending is not None and e and marker in m.group('file'):
                errors.append(Error(
                    os.path.basename(m.group('file')), int(m.group('line')),
                    func.get(m.group('file')), '%s (in the expansion of %s, %s:%s)' % (
                        pending.group('msg'), e.group('macro'),
                        pending.group('file').lstrip('./'), pending.group('line')),
                    bool(pending.group('fatal')), None))
                last, pending = len(errors) - 1, None
                continue
            n = NEAR.search(m.group('msg'))
            if n and last is not None and errors[last].near is None:
                errors[last] = errors[last]._replace(near=n.group('what'))
            continue
        if OTHER.match(raw):
            last = pending = None
    return errors


def hook_list_members(tree):
    """[(member, type)] of the target's struct security_hook_list (what
    gcc names when an entry's initializer lands on the wrong member)."""
    try:
        text = cscan.code_text(source.text(os.path.join(tree, 'include/linux/lsm_hooks.h')))
    except OSError:
        return DEFAULT_MEMBERS
    m = re.search(r'struct\s+security_hook_list\s*\{(.*?)\}', text, re.S)
    if not m:
        return DEFAULT_MEMBERS
    out = tuple((n, re.sub(r'\s+', ' ', t).strip()) for t, n in re.findall(
        r'([^;{}]*?[\s*])(\w+)\s*(?:\[[^]]*\])?\s*;', m.group(1)))
    return out or DEFAULT_MEMBERS


def cascade(err, name, index, members):
    """Whether err, at entry `index` of hook list `name`, is one gcc gives
    for an entry misplaced after an unconverted one: it was initializing
    another entry or a member of struct security_hook_list other than the
    hook (near initialization for 'x_hooks[0].list.pprev'), it names such a
    member's type, or the initializer's shape no longer matches."""
    hook = [n for n, t in members if 'security_list_options' in t]
    other = [(n, t) for n, t in members if n not in hook]
    if err.near:
        m = re.match(r'%s(?:\[(\d+)\])?(?:\.(\w+))?' % re.escape(name), err.near)
        if m and (m.group(1) is None or int(m.group(1)) != index or
                  (m.group(2) and m.group(2) not in hook)):
            return True
    for n, t in other:
        base = re.sub(r'^const\s+', '', t).rstrip(' *')
        if re.search(r"['‘](const )?%s\b[^'’]*['’]" % re.escape(base), err.msg) or \
                re.search(r"named ['‘]%s['’]" % re.escape(n), err.msg):
            return True
    return bool(CASCADE.search(err.msg))


def hook_lists(text):
    """[(name, first line, last line, [line of each entry])] of the
    hook-list arrays in C text."""
    code = cscan.code_text(text)
    out = []
    for m in re.finditer(r'struct\s+security_hook_list\s+(\w+)\s*\[[^\]]*\][^;={]*=\s*\{', code):
        end = cscan.match_paren(code, m.end() - 1)
        if end < 0:
            continue
        starts, depth, fresh = [], 0, True
        body = cscan.blank_directives(code[:end - 1])
        for i in range(m.end(), end - 1):
            ch = body[i]
            if fresh and not ch.isspace() and depth == 0:
                starts.append(code.count('\n', 0, i) + 1)
                fresh = False
            if ch in '({[':
                depth += 1
            elif ch in ')}]':
                depth -= 1
            elif ch == ',' and depth == 0:
                fresh = True
        out.append((m.group(1), code.count('\n', 0, m.start()) + 1,
                    code.count('\n', 0, end) + 1, starts))
    return out


def objects(text):
    """{line: name} of the top-level definitions of C text, at the line
    that names them: functions (cscan) and initialized variables and arrays
    (`... NAME[...] = ...;`)."""
    out = {}
    for f in cscan.functions(text):
        out[f.line] = f.name
    code = cscan.blank_directives(cscan.code_text(text))
    depth, lo = 0, 0
    for i, ch in enumerate(code):
        if ch in '({[':
            depth += 1
        elif ch in ')}]':
            depth -= 1
            if depth == 0 and ch == '}' and not re.match(r'\s*[;=,]', code[i + 1:i + 3]):
                lo = i + 1          # a function body or a struct body ended
        elif ch == ';' and depth == 0:
            stmt = code[lo:i]
            m = re.search(r'([A-Za-z_]\w*)\s*(\[[^\]]*\]\s*)*(__\w+\s*)*=', stmt)
            if m and not re.match(r'\s*(typedef|#)', stmt):
                out.setdefault(code.count('\n', 0, lo + m.start(1)) + 1, m.group(1))
            lo = i + 1
    return out


def includes_of(sources):
    """{file: set of module files it includes, transitively}."""
    direct = {}
    for f, t in sources.items():
        direct[f] = {os.path.basename(h) for h in re.findall(
            r'^\s*#\s*include\s*"([^"]+)"', cscan.strip_comments(t), re.M)
            if os.path.basename(h) in sources}
    out = {}
    for f in sources:
        seen, todo = set(), [f]
        while todo:
            g = todo.pop()
            for h in direct.get(g, ()):
                if h not in seen:
                    seen.add(h)
                    todo.append(h)
        out[f] = seen
    return out


def declares(tree, header, name):
    """Whether the target's header (as an include names it) mentions name
    (a declaration or definition of it, as far as text can tell)."""
    if not tree:
        return False
    for d in ('include', 'arch/x86/include', 'include/uapi', 'arch/x86/include/uapi'):
        p = os.path.join(tree, d, header)
        if os.path.isfile(p):
            return bool(re.search(r'\b%s\b' % re.escape(name), source.text(p)))
    return False


def attribute(errors, todos, sources, members=DEFAULT_MEMBERS, tree=None):
    """Yield (error, todo or None, is_lsm_api, how) per error (the module
    docstring says how an error is explained).

    sources maps a basename to the text of the built file (for the function
    around a todo, the source line of an error, the hook lists, the
    includes); tree, the target, tells which replacement header an include
    todo names declares an undeclared name."""
    spans = {f: cscan.functions(t) for f, t in sources.items()}
    lines = {f: t.splitlines() for f, t in sources.items()}
    objs = {f: objects(t) for f, t in sources.items()}
    lists = {f: hook_lists(t) for f, t in sources.items()}
    incs = includes_of(sources)
    defined = {n for o in objs.values() for n in o.values()}
    todo_funcs = []
    for f, ln, detail in todos:
        names = set(re.findall(r'[A-Za-z_]\w*', detail))
        around = function_at(spans.get(f, []), ln)
        todo_funcs.append((f, ln, detail, around, names))
    for err in errors:
        f, ln, fn, msg = err.file, err.line, err.func, err.msg
        src = ''
        if f in lines and 0 < ln <= len(lines[f]):
            src = lines[f][ln - 1]
        if fn is None:
            fn = function_at(spans.get(f, []), ln)
        hit, how = None, None
        for tf, tl, detail, around, names in todo_funcs:
            if tf == f and tl == ln:
                hit, how = (tf, tl, detail), 'line'
                break
        if hit is None:
            # a todo that lists the line (the uses of an ops object)
            for tf, tl, detail, around, names in todo_funcs:
                if '%s:%d' % (f, ln) in re.findall(r'[\w.-]+\.[ch]:\d+', detail):
                    hit, how = (tf, tl, detail), 'listed'
                    break
        if hit is None:
            # the entries gcc misplaces after an unconverted one
            for name, first, last, starts in lists.get(f, []):
                if not first <= ln <= last:
                    continue
                before = [t for t in todo_funcs if t[0] == f and first <= t[1] < ln]
                index = len([x for x in starts if x <= ln]) - 1
                if before and cascade(err, name, index, members):
                    hit, how = before[-1][:3], 'cascade'
                break
        if hit is None:
            for tf, tl, detail, around, names in todo_funcs:
                if fn is not None and ((tf == f and fn == around) or fn in names):
                    hit, how = (tf, tl, detail), 'function'
                    break
        if hit is None:
            obj = objs.get(f, {}).get(ln)
            for tf, tl, detail, around, names in todo_funcs:
                if obj is not None and obj in names:
                    hit, how = (tf, tl, detail), 'definition'
                    break
        m = UNDECLARED.search(msg)
        undeclared = next((g for g in m.groups() if g), '') if m else ''
        if hit is None:
            # an error on a line (an initializer entry, a call) that uses a
            # function or object of the module a todo names, or a name no
            # declaration gives that a todo names (CONFIG_X)
            used = set(re.findall(r'[A-Za-z_]\w*', src)) & defined
            if undeclared:
                used.add(undeclared)
            for tf, tl, detail, around, names in todo_funcs:
                if used & names:
                    hit, how = (tf, tl, detail), 'use'
                    break
        api = bool(LSM_API.search(msg) or LSM_API.search(src))
        if hit is None and m and not LSM_API.search(undeclared):
            files = {f} | incs.get(f, set())
            cands = [t for t in todo_funcs if t[0] in files and t[2].startswith('[include] ')]
            # the include todo one of whose replacement headers declares
            # the name on the target, else the first
            best = [t for t in cands if undeclared and any(
                declares(tree, h, undeclared) for h in re.findall(r'<([\w./-]+)>', t[2])[1:])]
            if best or cands:
                hit, how = (best or cands)[0][:3], 'header'
        yield err, hit, api, how


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
    ap.add_argument('--target', help='the target tree (the members of struct '
                    'security_hook_list; default: 6.1\'s)')
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
    members = hook_list_members(a.target) if a.target else DEFAULT_MEMBERS
    bad = 0
    rows = []
    for e, hit, api, how in attribute(parse_errors(log, a.module_dir), todos, sources,
                                      members, a.target):
        f, ln, msg = e.file, e.line, e.msg
        if e.fatal:
            rows.append(('not-compiled', f'{f}:{ln}', msg, 'fatal'))
        if hit:
            rows.append(('reported', f'{f}:{ln}', msg, f'{hit[0]}:{hit[1]}: {hit[2]}', how))
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
    """What make port shows of an attribution: the counts, every file not
    compiled, every error not reported, the first `most` reported ones with
    their todo and how."""
    errs = [r for r in rows if r[0] != 'not-compiled']
    rep = [r for r in errs if r[0] == 'reported']
    out = [f'  {name}: {len(rep)} error(s) named by a todo, {len(errs) - len(rep)} not reported']
    out += [f'    not compiled: {r[1]}: fatal error: {r[2]} (gcc stopped this file here)'
            for r in rows if r[0] == 'not-compiled']
    out += ['    not reported: ' + '\t'.join(r[1:]) for r in errs if r[0] != 'reported']
    for r in rep[:most]:
        out += [f'    {r[1]}: {r[2]}', f'      <- todo {r[3]}' + (
            f' ({r[4]})' if r[4] != 'line' else '')]
    if len(rep) > most:
        out.append(f'    ... {len(rep) - most} more error(s) named by a todo: {tsv}')
    return ''.join(l + '\n' for l in out)


if __name__ == '__main__':
    sys.exit(main())
