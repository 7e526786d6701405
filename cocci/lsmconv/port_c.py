# SPDX-License-Identifier: GPL-2.0
"""Small C text helpers for the port mode: function prototypes and types.

    strip_comments(text)     comments and string contents blanked, newlines kept
    find_function(text, fn)  -> (ret, [param decls], has_body, line) or None
    param_type(decl)         'const struct cred *cred' -> 'const struct cred*'
    norm_type(t)             whitespace and '*' spacing normalised for comparison
"""
import re

from lsmconv import hooks

_BASE = {"int", "long", "short", "char", "void", "unsigned", "signed", "bool",
         "const", "volatile", "float", "double"}
_SPEC = {"static", "inline", "__inline", "__inline__", "extern", "__init", "__exit",
         "noinline", "__always_inline", "__maybe_unused", "__must_check", "__cold",
         "notrace", "__weak"}


def strip_comments(text):
    """Blank out comments and the inside of string/char literals (same length,
    newlines kept) so that regexes see only code."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + text[j - 1:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def norm_type(t):
    t = re.sub(r"\s+", " ", t.strip())
    t = re.sub(r"\s*\*\s*", "*", t)
    t = re.sub(r"\bunsigned\b(?!\s+(int|long|short|char))", "unsigned int", t)
    t = re.sub(r"\bsigned int\b", "int", t)
    return t.strip()


def param_type(decl):
    """The type of one parameter declaration (named or not)."""
    d = re.sub(r"\s+", " ", decl.strip())
    if d == "void" or d == "...":
        return d
    toks = re.findall(r"[A-Za-z_]\w*|\S", d)
    words = [t for t in toks if re.match(r"[A-Za-z_]", t)]
    if d.endswith("*") or len(words) <= 1 or all(w in _BASE for w in words):
        return norm_type(d)
    # 'struct inode' (no name): the last word follows struct/union/enum
    if len(words) >= 2 and words[-2] in ("struct", "union", "enum") and toks[-1] == words[-1]:
        return norm_type(d)
    typ, _ = hooks.param(d)
    return norm_type(typ)


def _match_paren(text, i):
    """Index just after the ')' matching the '(' at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


def find_function(text, fn):
    """Definition (preferred) or prototype of fn in C text (comments already
    stripped).  Returns (ret, params, has_body, line) or None."""
    best = None
    for m in re.finditer(r"\b%s\s*\(" % re.escape(fn), text):
        start = m.start()
        k = start - 1
        while k >= 0 and text[k] not in ";{}#":
            k -= 1
        ret = text[k + 1:start]
        if k >= 0 and text[k] == "#":
            # a preprocessor line before the declaration: skip that line
            if "\n" not in ret:
                continue
            ret = ret[ret.index("\n") + 1:]
        ret = re.sub(r"\s+", " ", ret).strip()
        if not ret or re.search(r"[=(),.\[\]!&|+?:<>-]", ret.replace("*", "")) \
                or ret in ("return", "else"):
            continue
        words = [w for w in ret.replace("*", " * ").split() if w not in _SPEC]
        if not words or words[-1] in ("return", "if", "while", "sizeof"):
            continue
        close = _match_paren(text, m.end() - 1)
        if close < 0:
            continue
        rest = text[close:close + 200].lstrip()
        rest = re.sub(r"^(__\w+(\([^)]*\))?\s*)*", "", rest)
        if not rest or rest[0] not in "{;":
            continue
        inner = text[m.end():close - 1]
        params = [p for p in hooks.split_args(inner)] if inner.strip() else []
        if params == ["void"]:
            params = []
        r = (norm_type(" ".join(words)), params, rest[0] == "{",
             text.count("\n", 0, start) + 1)
        if r[2]:
            return r
        if best is None:
            best = r
    return best


def prototype_text(ret, name, params):
    return "%s %s(%s)" % (ret.replace("*", " *").replace(" *", " *").strip(), name,
                          ", ".join(re.sub(r"\s+", " ", p.strip()) for p in params) or "void")
