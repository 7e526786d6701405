#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tests/lint's exit-code check: every lsmconv command exits by the one
table (docs/CONTRACTS.md; EXIT_* in scripts/lib.sh, lsmconv.exits in
Python): 0 done, 1 todos left, 2 usage/input error, 3 failure after writing
started, 130/143 interrupted.

    tests/lint/exitcodes.py ROOT

checks, under ROOT:
  - scripts/lib.sh's EXIT_* and cocci/lsmconv/exits.py give the same
    codes, and they are the table's;
  - no shell script of the commands (every tracked *.sh outside tests/,
    and convert.sh) exits with a bare 1 or 3 (`exit 1`, `exit 3`; an
    `exit "$V"` whose V is assigned 1 or 3 anywhere in the file): 1 is
    "todos left", which a script says as `exit "$EXIT_TODO"`, and a failed
    step is `exit "$EXIT_FAILED"` (die); here-documents (guest scripts)
    and the EXEMPT scripts below (their own documented verdict codes) are
    not read;
  - die()/die_log() in scripts/lib.sh end in `exit "$EXIT_FAILED"`, and
    die_usage() in `exit "$EXIT_USAGE"`;
  - the Python commands (PYTHON_COMMANDS) return no bare 1, 2 or 3 and
    use lsmconv.exits.
Prints one line per finding, `FILE:LINE: what`, and exits 1 when there is
one (0 otherwise, 2 on a usage error).
"""
import os
import re
import subprocess
import sys

TABLE = {"DONE": 0, "TODO": 1, "USAGE": 2, "FAILED": 3, "INT": 130, "TERM": 143}

# Scripts with verdict codes of their own, each with its reason.
EXEMPT = {
    "qemu-boot/run.sh": "the QEMU harness's verdicts (0 pass, 1 fail, 2 panic, 3 timeout, "
                        "4 no-output, 5 setup error: docs/CONTRACTS.md, QEMU harness)",
    "verify/compare.sh": "a comparison's verdict: 1 = the decisions differ",
}

PYTHON_COMMANDS = ("cocci/lsmconv/driver.py", "cocci/lsmconv/port.py",
                   "cocci/lsmconv/items.py", "cocci/lsmconv/report.py")

HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1")
BARE_EXIT = re.compile(r"(?<![\w$-])exit\s+([13])\b")
VAR_EXIT = re.compile(r"(?<![\w$-])exit\s+\"?\$\{?(\w+)\}?\"?")
PY_BARE = re.compile(r"^\s*(return|sys\.exit\()\s*\(?\s*([123])\s*\)?\s*$|\bcode\s*=\s*[123]\b")


def masked(line):
    """line with the inside of its quoted strings blanked (same length): what
    a string says is not code."""
    out, i, n = [], 0, len(line)
    while i < n:
        c = line[i]
        if c in "'\"":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if (c == '"' and line[j] == "\\") else 1
            j = min(j, n - 1)
            out.append(c + " " * (j - i - 1) + line[j])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)[:n]


def shell_lines(text):
    """(line number, line) of the shell code, here-document bodies left out."""
    out, end = [], None
    for n, line in enumerate(text.split("\n"), 1):
        if end is not None:
            if line.strip() == end:
                end = None
            continue
        code = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
        out.append((n, code))
        m = HEREDOC.search(code)
        if m:
            end = m.group(2)
    return out


def functions(lines, names):
    """{name: [(n, line)]} of the shell functions `name() {` ... `}`."""
    out, cur = {}, None
    for n, line in lines:
        m = re.match(r"\s*(\w+)\s*\(\)\s*\{", line)
        if m and m.group(1) in names:
            cur = m.group(1)
            out[cur] = []
            if line.rstrip().endswith("}") and line.count("{") == line.count("}"):
                out[cur].append((n, line))
                cur = None
            continue
        if cur:
            if re.match(r"\}\s*$", line):
                cur = None
            else:
                out[cur].append((n, line))
    return out


def check_shell(root, rel, found):
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        lines = shell_lines(f.read())
    assigned = {}
    for n, line in lines:
        for m in re.finditer(r"(?<![\w$])(?!EXIT_)(\w+)=([13])\b", masked(line)):
            assigned.setdefault(m.group(1), []).append((n, m.group(2)))
    for n, line in lines:
        code = masked(line)
        m = BARE_EXIT.search(code)
        if m:
            found.append("%s:%d: exit %s: say it with the table (exit \"$EXIT_TODO\" for todos "
                         "left, die or exit \"$EXIT_FAILED\" for a failed step)" % (rel, n, m.group(1)))
        e = re.search(r"(?<![\w$-])exit\s", code)
        m = VAR_EXIT.match(line, e.start()) if e else None
        if m and m.group(1) in assigned:
            for an, v in assigned[m.group(1)]:
                found.append("%s:%d: %s=%s, and line %d exits with $%s: a bare %s (use "
                             "$EXIT_TODO or $EXIT_FAILED)" % (rel, an, m.group(1), v, n, m.group(1), v))
    return lines


def check_lib(root, found):
    rel = "scripts/lib.sh"
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        text = f.read()
    have = {k: int(v) for k, v in re.findall(r"\bEXIT_([A-Z]+)=(\d+)", text)}
    if have != TABLE:
        found.append("%s: EXIT_* are %s, the table is %s" % (rel, sorted(have.items()),
                                                              sorted(TABLE.items())))
    fns = functions(shell_lines(text), ("die", "die_log", "die_usage"))
    for name, want in (("die", "EXIT_FAILED"), ("die_usage", "EXIT_USAGE")):
        body = fns.get(name)
        if not body:
            found.append("%s: no function %s()" % (rel, name))
            continue
        exits = [(n, l) for n, l in body if re.search(r"(?<![\w$-])exit\b", l)]
        if not exits or any(("\"$%s\"" % want) not in l for _, l in exits):
            found.append("%s:%d: %s() must exit \"$%s\"" % (rel, body[0][0] - 1, name, want))
    body = fns.get("die_log") or []
    if not any(re.match(r"\s*die\s", l) for _, l in body):
        found.append("%s: die_log() must end in die (exit \"$EXIT_FAILED\")" % rel)


def check_python(root, found):
    rel = "cocci/lsmconv/exits.py"
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "cocci"))
    p = subprocess.run([sys.executable, "-c", "from lsmconv import exits; print(exits.DONE, "
                        "exits.TODO, exits.USAGE, exits.FAILED, exits.INT, exits.TERM)"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    want = " ".join(str(TABLE[k]) for k in ("DONE", "TODO", "USAGE", "FAILED", "INT", "TERM"))
    if p.returncode != 0 or p.stdout.strip() != want:
        found.append("%s: gives %r, the table is %s" % (rel, p.stdout.strip(), want))
    for rel in PYTHON_COMMANDS:
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if "exits." not in text:
            found.append("%s: does not use lsmconv.exits" % rel)
        for n, line in enumerate(text.split("\n"), 1):
            if PY_BARE.search(line.split("#", 1)[0]):
                found.append("%s:%d: a bare exit code (%s): use lsmconv.exits" % (rel, n, line.strip()))


def shell_scripts(root):
    try:
        p = subprocess.run(["git", "-C", root, "ls-files", "*.sh", "convert.sh"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           universal_newlines=True, check=True)
        files = p.stdout.split()
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if not x.startswith(".") and x != "build"]
            files += [os.path.relpath(os.path.join(d, x), root) for x in names
                      if x.endswith(".sh") or x == "convert.sh"]
    return sorted(set(f for f in files if not f.startswith("tests/") and
                      os.path.isfile(os.path.join(root, f))))


def main(argv):
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        sys.stderr.write("usage: tests/lint/exitcodes.py ROOT\n")
        return 2
    root = argv[0]
    found = []
    check_lib(root, found)
    check_python(root, found)
    for rel in shell_scripts(root):
        if rel not in EXEMPT:
            check_shell(root, rel, found)
    for f in found:
        print(f)
    for rel in sorted(EXEMPT):
        sys.stderr.write("not read: %s: %s\n" % (rel, EXEMPT[rel]))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
