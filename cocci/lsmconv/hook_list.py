# SPDX-License-Identifier: GPL-2.0
"""Rule 20 (20-hook-list.cocci): a legacy `struct security_operations`
initializer -> the target's hook list.  The rule's script rules call
entry() for a designated entry and positional() for a positional one;
both report through emit and return what the transformations bind."""
import re

from lsmconv import form, legacy, rule, source
from lsmconv import emit as _emit
from lsmconv.kwrap import wrap
from lsmconv.names import lsm_ident, lsm_name, processing

emit, set_mode = _emit.emit, _emit.set_mode
NULLS = set()
# designated entries by (file, ops, field, value): the LSM_HOOK_INIT text
# of an entry to convert, and the entries to drop (`.f = NULL`).  Not by
# position: an earlier transformation of the same initializer makes spatch
# re-parse it, and the positions the later rules see are in its copy.
CONV = {}
DROP = set()


def entry_col(path, line, column, field=None):
    """Visual column (tabs = 8) where the entry at line/column begins: the
    `.field` of a designated entry (up to 3 lines before its value), else
    the position itself."""
    lines = source.text(path).split("\n")
    i = int(line) - 1
    if field is not None:
        for j in range(i, max(i - 3, -1), -1):
            text = lines[j] if j < len(lines) else ""
            if j == i:
                text = text[:int(column)]
            m = None
            for m in re.finditer(r"\.\s*%s\s*=" % re.escape(field), text):
                pass
            if m:
                return len(lines[j][:m.start()].expandtabs(8))
    text = lines[i] if i < len(lines) else ""
    return len(text[:int(column)].expandtabs(8))


def hook_init(col, hook, fn):
    """`LSM_HOOK_INIT(hook, fn)` as printed from column col, wrapped like
    the kernel when the line (with its comma) is longer than 80 columns."""
    return wrap(col, "LSM_HOOK_INIT(%s, %s)," % (hook, fn))[:-1]


# Script rules here never drop a match (cocci.include_match(False) drops it
# for every later rule, the ops structure included); they bind NONE, which
# matches no code, to switch a transformation off.
NONE = "__lsmconv_no_match__"


def defines(path):
    """Object-like and function-like macros of a file: name -> (params, body)."""
    out = {}
    text = source.strip_comments(source.text(path)).replace("\\\n", " ")
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?[ \t]*(.*)$",
                         text, re.M):
        params = None
        if m.group(2) is not None:
            params = [p.strip() for p in m.group(2)[1:-1].split(",") if p.strip()]
        out[m.group(1)] = (params, m.group(3).strip())
    return out


def expand_entry(path, text):
    """Expand an entry macro call into ('field', 'value') or None."""
    m = re.match(r"^\s*(\w+)\s*\((.*)\)\s*$", text, re.S)
    if not m:
        return None
    macro = defines(path).get(m.group(1))
    if not macro or macro[0] is None:
        return None
    params, body = macro
    args = [a.strip() for a in m.group(2).split(",")] if m.group(2).strip() else []
    if len(args) != len(params):
        return None
    for p, a in zip(params, args):
        body = re.sub(r"\s*##\s*\b%s\b" % re.escape(p), a, body)
        body = re.sub(r"\b%s\b\s*##\s*" % re.escape(p), a, body)
        body = re.sub(r"\b%s\b" % re.escape(p), a, body)
    d = re.match(r"^\.\s*(\w+)\s*=\s*(.+?)\s*,?\s*$", body, re.S)
    if not d:
        return None
    return d.group(1), d.group(2)


def field_hook(path, field):
    """Map a designated field to a target hook name (via a macro if need be)."""
    if field in rule.hooks():
        return field
    macro = defines(path).get(field)
    if macro and macro[0] is None and macro[1] in rule.hooks():
        return macro[1]
    return None


def legacy_members(path):
    """Member order of the legacy struct: this file, else -D legacy."""
    return legacy.members_of([path] + rule.LEGACY)


def list_attribute():
    """True when the target's hook lists carry __lsm_ro_after_init."""
    return bool(form.list_attribute(rule.target()))


def hooks_name(o, n1, n2):
    """<lsm>_hooks, the name of the array (n1: .name, n2: a positional name)."""
    if not n2.startswith('"'):
        n2 = ""
    return lsm_ident(lsm_name(o, n1 or n2)) + "_hooks"


def entry(o, f, e, pos):
    """A designated `.f = e` of ops o at pos: recorded in CONV (convert to
    LSM_HOOK_INIT) or DROP (a NULL entry), or reported and left."""
    if f == "name":
        return
    k = (pos.file, o, f, _norm(e))
    if e in ("NULL", "0"):
        DROP.add(k)
        return
    hook = field_hook(pos.file, f)
    if hook is None:
        emit("todo", pos, "%s: .%s = %s: field is not a hook of the target "
             "tree (vendor or renamed hook); entry left as is" % (o, f, e))
        return
    emit("entry", pos, "%s: LSM_HOOK_INIT(%s, %s)" % (o, hook, e))
    CONV[k] = hook_init(entry_col(pos.file, pos.line, pos.column, f), hook, e)


def _norm(e):
    """An expression as a key: without blanks (a re-parsed copy may space
    it differently)."""
    return re.sub(r"\s+", "", str(e))


def _here(o, f, e):
    return [(path, o, f, _norm(e)) for path in processing()]


def converts(o, f, e):
    """The entry `.f = e` of ops o in the file being processed becomes an
    LSM_HOOK_INIT."""
    return any(k in CONV for k in _here(o, f, e))


def conv_at(o, f, e):
    """The LSM_HOOK_INIT text of that entry."""
    for k in _here(o, f, e):
        if k in CONV:
            return CONV[k]
    return NONE


def drops(o, f, e):
    """The entry `.f = e` (a NULL) of ops o goes."""
    return any(k in DROP for k in _here(o, f, e))


def positional(o, n, before, e, pos):
    """The n-th (positional) entry e of ops o at pos: (e2, x), convert e2
    to x (NONE: leave it)."""
    path = pos.file
    n = int(n)
    e = str(e)
    exp = expand_entry(path, e) if e not in ("NULL", "0") else None
    conv = None
    if exp is not None:
        hook = field_hook(path, exp[0])
        if hook is None:
            emit("todo", pos, "%s: %s expands to .%s, not a hook of the target "
                 "tree; entry left as is" % (o, e, exp[0]))
        else:
            conv = (hook, exp[1])
    else:
        members = legacy_members(path)
        if n == 0 and e.startswith('"'):
            pass
        elif re.search(r"(^|,)\s*[.\[]", str(before)):
            emit("todo", pos, "%s: positional entry %s after a designated one; "
                 "convert by hand" % (o, e))
        elif members is None:
            emit("todo", pos, "%s: positional entry %s and no legacy struct "
                 "security_operations definition to give its field; convert by hand"
                 % (o, e))
        elif n >= len(members):
            emit("todo", pos, "%s: positional entry %s beyond the %d members of "
                 "struct security_operations" % (o, e, len(members)))
        elif members[n] == "name" or (n == 0 and e.startswith('"')):
            pass
        elif e in ("NULL", "0"):
            NULLS.add(o)
        elif members[n] not in rule.hooks():
            emit("todo", pos, "%s: positional entry %s is member %s, not a hook "
                 "of the target tree; entry left as is" % (o, e, members[n]))
        else:
            conv = (members[n], e)
    if conv is None:
        return NONE, NONE
    emit("entry", pos, "%s: LSM_HOOK_INIT(%s, %s)" % (o, conv[0], conv[1]))
    return e, hook_init(entry_col(path, pos.line, pos.column), conv[0], conv[1])
