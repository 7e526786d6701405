# SPDX-License-Identifier: GPL-2.0
"""The one C scanner: what lsmconv reads from C text without a parser.

Every Python file that reads C goes through these functions (the rules'
helpers, the port and its checks, make port's attribution); none keeps a
scanner of its own.  All of them take text and return positions in that
text, so a caller can edit the text it scanned.

    strip_comments(text, strings=False)
        comments blanked out (and with strings=True the inside of string
        and character literals): the same length, newlines kept, so
        offsets and line numbers stay and a comment still separates tokens.
        A comment marker inside a literal is not a comment.
    code_text(text)
        strip_comments(text, strings=True): what a caller's regexes should
        see
    blank_directives(code)
        preprocessor lines blanked, with their `\\` continuation lines (a
        multi-line `#define ... do { } while (0)` is not code)
    logical_line(lines, i) -> (text, j)
        line i joined with its `\\` continuation lines (each `\\` and the
        line break become one blank) and the index j of its last line
    functions(text) -> [Function]
        the top-level function definitions, in order: a body `{ ... }` at
        brace depth 0 after `name(params)` (attributes such as
        `__releases(x)` may follow) that is not an initializer
        (`= {`) or a struct, union or enum body.  Preprocessor lines and
        their continuations are skipped, so a definition after a multi-line
        `#define ... while (0)` is still found.
    function_at(funcs, line) -> Function or None (the one whose lines hold line)
    find_function(text, name) -> (ret, params, has_body, line) or None
        name's definition (preferred) or prototype in text (comments
        stripped)
    match_paren(text, i) -> the index after the bracket matching text[i]
    conditions(text, line) -> [str]
        the preprocessor conditions under which line (1-based) is
        compiled, outermost first, each a directive line that opens the
        same condition (`#ifdef X`, `#if !(A) && (B)` for an #elif or
        #else branch); [] at the top level
    group_end(lines, o, stop_at_else=False) -> index or None
        the `#endif` matching the `#if`/`#ifdef`/`#ifndef` at lines[o]
        (None when there is none, or with stop_at_else when the group has
        an `#else`/`#elif` of its own)
    split_args(text) -> the top-level comma-separated parts, stripped
    param(decl) -> (type, name) of one parameter declaration
    calls(text, name=None) -> [Call]
        every call `name(args)` (of any name, or of `name`), in order;
        keywords (if, while, sizeof, ...) are not calls
    norm_type(t), param_type(decl)
        the one normal form of a C type for comparing: blanks collapsed,
        `T *`, `T **`, `T *const *` (one blank before a run of stars, none
        after),
        `unsigned` -> `unsigned int`, `signed int` -> `int`

Function fields (lines 1-based, offsets into the text given):
    name        the function's name
    ret         what stands before the name (return type and specifiers),
                blanks collapsed
    params      the text between the parentheses
    first       the line where the definition starts (its return type)
    line        the line of the name
    open, close the offsets of the body's `{` and `}`
    body_line   the line of the `{`
    last        the line of the `}`
    start       the offset where the definition starts

Call fields: name, start (offset of the name), open (offset of `(`), end
(offset after `)`), args (the argument texts, blanks kept), line.
"""
import re
from collections import namedtuple

Function = namedtuple("Function", "name ret params first line open close body_line last start")
Call = namedtuple("Call", "name start open end args line")

KEYWORDS = frozenset((
    "if", "for", "while", "switch", "return", "sizeof", "do", "else", "case", "goto",
    "typeof", "__typeof__", "_Alignof", "__alignof__", "alignof", "defined",
    "__attribute__", "asm", "__asm__", "_Static_assert", "static_assert"))

_BASE = frozenset(("int", "long", "short", "char", "void", "unsigned", "signed", "bool",
                   "const", "volatile", "float", "double"))
SPECIFIERS = frozenset((
    "static", "inline", "__inline", "__inline__", "extern", "__init", "__exit",
    "noinline", "__always_inline", "__maybe_unused", "__must_check", "__cold",
    "notrace", "__weak"))


# ------------------------------------------------------------------ text

def strip_comments(text, strings=False):
    """Comments (and with strings=True the inside of string and character
    literals) blanked out: same length, newlines kept."""
    out, i, n = [], 0, len(text)
    start = 0
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(text[start:i])
            # a backslash-newline inside a comment still splices lines
            # (translation phase 2 comes before comments): a comment in
            # a macro body does not end the macro
            out.append(re.sub(r"(?!\\\n)[^\n]", " ", text[i:j]))
            i = start = j
        elif c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(text[start:i])
            out.append(" " * (j - i))
            i = start = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            if strings:
                out.append(text[start:i + 1])
                out.append(re.sub(r"[^\n]", " ", text[i + 1:j - 1]))
                out.append(text[j - 1:j])
                start = j
            i = j
        else:
            i += 1
    out.append(text[start:])
    return "".join(out)


def code_text(text):
    """Comments and the inside of literals blanked (strip_comments)."""
    return strip_comments(text, strings=True)


def logical_line(lines, i):
    """(line i joined with its continuation lines, index of the last)."""
    text = lines[i]
    while text.endswith("\\") and i + 1 < len(lines):
        i += 1
        text = text[:-1] + " " + lines[i]
    return text, i


def blank_directives(code):
    """Preprocessor lines and their continuation lines blanked (same
    length, newlines kept)."""
    lines = code.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("#"):
            _, j = logical_line(lines, i)
            for k in range(i, j + 1):
                lines[k] = " " * len(lines[k])
            i = j
        i += 1
    return "\n".join(lines)


def conditions(text, line):
    """The directive lines that reopen the conditions around line (see the
    module docstring)."""
    stack = []          # per open #if: [branch conditions so far], current directive
    lines = strip_comments(text).split("\n")
    i = 0
    while i < min(line - 1, len(lines)):
        d, j = logical_line(lines, i)
        m = re.match(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)$", d)
        if m:
            kind, expr = m.group(1), re.sub(r"\s+", " ", m.group(2)).strip()
            if kind in ("ifdef", "ifndef"):
                c = ("defined(%s)" if kind == "ifdef" else "!defined(%s)") % expr
                stack.append(([c], "#%s %s" % (kind, expr)))
            elif kind == "if":
                stack.append(([expr], "#if %s" % expr))
            elif kind in ("elif", "else") and stack:
                prev, _ = stack[-1]
                neg = " && ".join("!(%s)" % c for c in prev)
                if kind == "elif":
                    stack[-1] = (prev + [expr], "#if %s && (%s)" % (neg, expr))
                else:
                    stack[-1] = (prev, "#if %s" % neg)
            elif kind == "endif" and stack:
                stack.pop()
        i = j + 1
    return [d for _, d in stack]


PP_IF = re.compile(r"^[ \t]*#[ \t]*if(?:n?def)?\b")
PP_ELSE = re.compile(r"^[ \t]*#[ \t]*(?:else|elif)\b")
PP_ENDIF = re.compile(r"^[ \t]*#[ \t]*endif\b")


def group_end(lines, o, stop_at_else=False):
    """Index of the #endif matching the #if at lines[o] (see the module
    docstring)."""
    depth = 0
    for j in range(o + 1, len(lines)):
        if PP_IF.match(lines[j]):
            depth += 1
        elif PP_ENDIF.match(lines[j]):
            if depth == 0:
                return j
            depth -= 1
        elif stop_at_else and depth == 0 and PP_ELSE.match(lines[j]):
            return None
    return None


def split_args(text):
    """Split a macro argument list (or any C list) at top-level commas:
    commas inside (), [] or {} do not split.  The parts, stripped."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return out


def param(decl):
    """One parameter declaration split: 'const struct cred *cred' ->
    ('const struct cred *', 'cred'); ('...', '') when it has no name."""
    decl = re.sub(r"\s+", " ", decl.strip())
    m = re.match(r"(.*?[\s*])([A-Za-z_][A-Za-z_0-9]*)((?:\[[^]]*\])*)$", decl)
    if not m or not m.group(1).strip():
        return (decl, "")
    typ = m.group(1).strip()
    if m.group(3):
        typ += " " + m.group(3)
    return (typ, m.group(2))


def match_paren(text, i):
    """The index just after the bracket that closes the one at text[i]
    ('(', '[' or '{'); -1 when it is not closed."""
    o = text[i]
    c = {"(": ")", "[": "]", "{": "}"}[o]
    depth = 0
    for j in range(i, len(text)):
        if text[j] == o:
            depth += 1
        elif text[j] == c:
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


# ------------------------------------------------------------------ functions

_HEADER = re.compile(r"(?:^|[\s*])([A-Za-z_]\w*)\s*\(", re.S)


def _header(code, lo, brace):
    """(name, ret, params, name offset, start offset) when code[lo:brace]
    (the text since the last top-level ';', '}' or directive) ends a
    function header, else None."""
    head = code[lo:brace]
    if "=" in _outside_parens(head):
        return None
    for m in _HEADER.finditer(head):
        name = m.group(1)
        if name in KEYWORDS or name in ("struct", "union", "enum"):
            continue
        popen = lo + m.end() - 1
        pclose = match_paren(code, popen)
        if pclose < 0 or pclose > brace:
            continue
        # only attributes (`__acquires(x)`, `__must_hold(l)`) up to the brace
        rest = code[pclose:brace]
        if not re.fullmatch(r"(\s*[A-Za-z_]\w*\s*(\([^;{}]*\))?)*\s*", rest):
            continue
        before = code[lo:lo + m.start(1)]
        start = lo + len(before) - len(before.lstrip())
        ret = re.sub(r"\s+", " ", before).strip()
        return name, ret, code[popen + 1:pclose - 1], lo + m.start(1), start
    return None


def _outside_parens(text):
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def functions(text):
    """The top-level function definitions of C text (see the module
    docstring)."""
    code = blank_directives(strip_comments(text, strings=True))
    out = []
    depth, lo, i, n = 0, 0, 0, len(code)
    while i < n:
        c = code[i]
        if c == "{" and depth == 0:
            end = match_paren(code, i)
            h = _header(code, lo, i)
            if end < 0:
                break
            if h and not re.search(r"\b(struct|union|enum)\s+\w*\s*$", code[lo:i]):
                name, ret, params, at, start = h
                out.append(Function(name, ret, params, code.count("\n", 0, start) + 1,
                                    code.count("\n", 0, at) + 1, i, end - 1,
                                    code.count("\n", 0, i) + 1,
                                    code.count("\n", 0, end - 1) + 1, start))
            i = lo = end
            continue
        if c in ";}" and depth == 0:
            lo = i + 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth = max(depth - 1, 0)
        i += 1
    return out


def function_at(funcs, line):
    """The function whose lines (from its name's line to its `}`) hold
    line, else None."""
    for f in funcs:
        if f.line <= line <= f.last:
            return f
    return None


def find_function(text, fn):
    """Definition (preferred) or prototype of fn in C text (comments already
    stripped).  Returns (ret, params, has_body, line) or None.  Preprocessor
    lines are not declarations (a multi-line #define before fn is skipped
    whole)."""
    text = blank_directives(text)
    best = None
    for m in re.finditer(r"\b%s\s*\(" % re.escape(fn), text):
        start = m.start()
        k = start - 1
        while k >= 0 and text[k] not in ";{}":
            k -= 1
        ret = text[k + 1:start]
        ret = re.sub(r"\s+", " ", ret).strip()
        if not ret or re.search(r"[=(),.\[\]!&|+?:<>-]", ret.replace("*", "")) \
                or ret in ("return", "else"):
            continue
        words = [w for w in ret.replace("*", " * ").split() if w not in SPECIFIERS]
        if not words or words[-1] in ("return", "if", "while", "sizeof"):
            continue
        close = match_paren(text, m.end() - 1)
        if close < 0:
            continue
        rest = text[close:close + 200].lstrip()
        rest = re.sub(r"^(__\w+(\([^)]*\))?\s*)*", "", rest)
        if not rest or rest[0] not in "{;":
            continue
        inner = text[m.end():close - 1]
        params = split_args(inner) if inner.strip() else []
        if params == ["void"]:
            params = []
        r = (norm_type(" ".join(words)), params, rest[0] == "{",
             text.count("\n", 0, start) + 1)
        if r[2]:
            return r
        if best is None:
            best = r
    return best


# ------------------------------------------------------------------ calls

_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def calls(text, name=None):
    """Every call in text (comments and strings should be stripped), or
    every call of name."""
    pat = re.compile(r"\b(%s)\s*\(" % re.escape(name)) if name else _CALL
    out = []
    for m in pat.finditer(text):
        if m.group(1) in KEYWORDS:
            continue
        o = m.end() - 1
        e = match_paren(text, o)
        if e < 0:
            continue
        inner = text[o + 1:e - 1]
        out.append(Call(m.group(1), m.start(), o, e,
                        split_args(inner) if inner.strip() else [],
                        text.count("\n", 0, m.start()) + 1))
    return out


# ------------------------------------------------------------------ types

def norm_type(t):
    """The one normal form of a C type (see the module docstring)."""
    t = re.sub(r"\s+", " ", str(t).strip())
    t = re.sub(r"\s*\*\s*", "*", t)
    t = re.sub(r"\bunsigned\b(?!\s+(int|long|short|char))", "unsigned int", t)
    t = re.sub(r"\bsigned int\b", "int", t)
    t = re.sub(r"(?<=[\w\])])(\*+)", r" \1", t)
    return t.strip()


def param_type(decl):
    """The type of one parameter declaration (named or not), normalised."""
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
    typ, _ = param(d)
    return norm_type(typ)
