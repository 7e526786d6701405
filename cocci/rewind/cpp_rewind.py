#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Preprocessor-level rewind edits: what spatch can neither match nor edit.

SmPL cannot match a #define, nor code built by an X-macro (#define LSM_HOOK
... #include <linux/lsm_hook_defs.h> ... #undef LSM_HOOK).  These few edits
are done here, each found by content (a macro's name, a word the X-macro
expands to, a struct's name), never by line number:

  cpp_rewind.py drop-define FILE NAME...
      Remove '#define NAME' (with its continuation lines) and a comment
      block right above it that names NAME.
  cpp_rewind.py drop-xmacro FILE WORD
      Remove every LSM_HOOK X-macro block whose expansion mentions WORD
      (a block inside a function or a struct body).
  cpp_rewind.py drop-type FILE NAME...
      Remove the top-level 'struct NAME {...};' / 'union NAME {...};'
      definitions and their leading comment when it is short (a long one
      is the hook documentation and stays).
  cpp_rewind.py call-hooks FILE
      Rewrite the call_int_hook()/call_void_hook() calls spatch left (in
      functions it cannot parse) to security_ops->hook(), each reported.
  cpp_rewind.py strip-new-ws REPO FILE...
      Strip trailing whitespace and doubled blank lines from the lines
      the current step added (spatch indents blank lines of added code).
  cpp_rewind.py fix-fn-brace FILE
      Put the '{' of function definitions spatch printed as 'f(...){' on
      its own line.
  cpp_rewind.py drop-ifdef FILE SYMBOL
      Remove an '#ifdef SYMBOL' ... '#endif' block (no #else) whose body
      became empty or only declares what other edits removed: used only
      for blocks that are empty after the edits.

Each command is idempotent and exits 0 when there is nothing left to do.
"""
import re
import sys

from gen import die, read, split_args


def load(path):
    return read(path).split("\n")


def save(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def comment_above(lines, i):
    """Index of the first line of a /* ... */ block ending right above line i
    (a blank line between them is allowed), or None."""
    j = i - 1
    while j >= 0 and lines[j].strip() == "":
        j -= 1
    if j < 0 or not lines[j].rstrip().endswith("*/"):
        return None
    k = j
    while k >= 0 and "/*" not in lines[k]:
        k -= 1
    return k if k >= 0 else None


def squeeze(lines, start, end):
    """Delete lines[start:end] and collapse the blank lines left behind."""
    del lines[start:end]
    while start < len(lines) and start > 0 and lines[start].strip() == "" and \
            lines[start - 1].strip() == "":
        del lines[start]


def drop_define(path, names):
    lines = load(path)
    for name in names:
        i = 0
        while i < len(lines):
            if re.match(r"#\s*define\s+%s\b" % re.escape(name), lines[i]):
                end = i
                while lines[end].rstrip().endswith("\\"):
                    end += 1
                start = i
                c = comment_above(lines, i)
                if c is not None and (name in "\n".join(lines[c:i]) or
                                      lines[i - 1].rstrip().endswith("*/")):
                    start = c
                squeeze(lines, start, end + 1)
                i = start
            else:
                i += 1
    save(path, lines)


def drop_xmacro(path, word):
    lines = load(path)
    i = 0
    while i < len(lines):
        if re.match(r"\s*#\s*define\s+LSM_HOOK\b", lines[i]):
            end = i
            while end < len(lines) and not re.match(r"\s*#\s*undef\s+LSM_HOOK\b", lines[end]):
                end += 1
            if end == len(lines):
                die("%s:%d: LSM_HOOK defined and never undefined" % (path, i + 1))
            if re.search(r"\b%s\b" % re.escape(word), "\n".join(lines[i:end])):
                squeeze(lines, i, end + 1)
                continue
            i = end
        i += 1
    save(path, lines)


def drop_type(path, names):
    lines = load(path)
    for name in names:
        for i, line in enumerate(lines):
            if re.match(r"(struct|union)\s+%s\s*\{\s*$" % re.escape(name), line):
                end = i
                while not re.match(r"\}.*;\s*$", lines[end]):
                    end += 1
                start = i
                c = comment_above(lines, i)
                # A short comment describes the type; a long one is the
                # hook documentation, which stays.
                if c is not None and i - c <= 6:
                    start = c
                squeeze(lines, start, end + 1)
                break
    save(path, lines)


def drop_ifdef(path, symbol):
    lines = load(path)
    i = 0
    while i < len(lines):
        if re.match(r"#\s*ifdef\s+%s\s*$" % re.escape(symbol), lines[i]):
            end = i + 1
            while end < len(lines) and not re.match(r"#\s*(endif|else|elif|if)", lines[end]):
                end += 1
            if end < len(lines) and re.match(r"#\s*endif", lines[end]) and \
                    all(l.strip() == "" for l in lines[i + 1:end]):
                squeeze(lines, i, end + 1)
                continue
        i += 1
    save(path, lines)


def fix_fn_brace(path):
    """spatch prints some added function definitions as 'f(args){': put the
    brace on its own line (kernel style; no kernel code has a top-level
    line ending in '){')."""
    lines = load(path)
    out = []
    for line in lines:
        m = re.match(r"^([A-Za-z_].*\))\{$", line)
        if m:
            out += [m.group(1), "{"]
        else:
            out.append(line)
    save(path, out)


def call_hooks(path):
    """call_int_hook(F, IRC, args) / call_void_hook(F, args) ->
    security_ops->F(args), textually.  Only for the calls left after
    20-security-c.cocci, in functions spatch cannot parse (6.1:
    security_inode_init_security(), whose parameter 'initxattrs' has the
    name of its typedef).  Reports each one on stderr."""
    text = "\n".join(load(path))
    out, i, n = [], 0, 0
    pat = re.compile(r"\bcall_(int|void)_hook\(")
    while True:
        m = pat.search(text, i)
        if not m:
            out.append(text[i:])
            break
        j, depth = m.end(), 1
        while depth:
            if text[j] == "(":
                depth += 1
            elif text[j] == ")":
                depth -= 1
            j += 1
        parts = split_args(text[m.end():j - 1])
        name = parts[0]
        args = parts[2:] if m.group(1) == "int" else parts[1:]
        args = re.sub(r"\s*\n\s*", " ", ", ".join(args))
        out.append(text[i:m.start()])
        out.append("security_ops->%s(%s)" % (name, args))
        n += 1
        line = text.count("\n", 0, m.start()) + 1
        sys.stderr.write("cpp_rewind.py: %s:%d: call_%s_hook(%s) rewritten textually "
                         "(spatch cannot parse the function)\n" % (path, line, m.group(1), name))
        i = j
    save(path, "".join(out).split("\n"))


def strip_new_ws(repo, path):
    """Trailing whitespace and doubled blank lines on the lines the current
    step added (git diff against the index): spatch indents the blank lines
    of added code."""
    import subprocess
    diff = subprocess.run(["git", "-C", repo, "diff", "-U0", "--", path],
                          check=True, capture_output=True, text=True).stdout
    added = set()
    for hunk in re.finditer(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", diff, re.M):
        start, count = int(hunk.group(1)), int(hunk.group(2) or 1)
        added.update(range(start, start + count))
    full = "%s/%s" % (repo, path)
    lines = load(full)
    out = []
    for no, line in enumerate(lines, 1):
        if no in added:
            line = line.rstrip()
            if line == "" and ((out and out[-1].strip() == "") or
                               (no < len(lines) and lines[no].strip() == "")):
                continue
        out.append(line)
    save(full, out)


def main():
    a = sys.argv[1:]
    if len(a) == 2 and a[0] in ("fix-fn-brace", "call-hooks"):
        a.append("")
    if len(a) < 3:
        die("usage: cpp_rewind.py drop-define|drop-xmacro|drop-type|drop-ifdef FILE ARG...")
    cmd, path, args = a[0], a[1], a[2:]
    if cmd == "drop-define":
        drop_define(path, args)
    elif cmd == "drop-xmacro":
        for w in args:
            drop_xmacro(path, w)
    elif cmd == "drop-type":
        drop_type(path, args)
    elif cmd == "call-hooks":
        call_hooks(path)
    elif cmd == "strip-new-ws":
        for f in args:
            strip_new_ws(path, f)
    elif cmd == "fix-fn-brace":
        fix_fn_brace(path)
    elif cmd == "drop-ifdef":
        for s in args:
            drop_ifdef(path, s)
    else:
        die("unknown command %s" % cmd)


if __name__ == "__main__":
    main()
