#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which external commands does lsmconv run, and does scripts/deps.sh
install every one of them?

usage: depcheck.py ROOT [DEPS_SH]

Prints one TAB-separated line per command:
  cmd<TAB>package<TAB>how (deps|essential|dependency of P|MISSING)<TAB>where
then one line per deps.sh package:
  pkg<TAB>name<TAB>used (commands, or the reason from indirect.tsv)|UNUSED

Commands come from
  - every tracked shell script (*.sh, and files whose first line names a
    shell) and Makefile recipe, guest side (qemu-boot/guest/) excluded: it
    runs busybox inside the guest;
  - Python files (subprocess calls with a literal command list);
  - tests/deps/indirect.tsv: commands the kernel build or another tool runs
    on our behalf (make headers_install runs rsync).
A command counts when it resolves on PATH (+ sbin) of this machine; its
package comes from `dpkg -S`.  It is installed on a fresh machine when its
package is in deps.sh, is Essential or Priority required (what a
minbase chroot has), or is a Depends/Pre-Depends of one of those (apt installs it).
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

SHELL_WORDS = set("""
if then else elif fi case esac for while until do done in function select time
coproc ! { } [[ ]] alias bg bind break builtin caller cd command compgen complete
continue declare dirs disown echo enable eval exec exit export false fc fg getopts
hash help history jobs kill let local logout mapfile popd printf pushd pwd read
readarray readonly return set shift shopt source suspend test times trap true
type typeset ulimit umask unalias unset wait . : [
""".split())
# Wrappers whose argument is the real command: skip them and their options.
WRAPPERS = {"env", "nice", "timeout", "exec", "command", "xargs", "setsid",
            "nohup", "stdbuf", "flock", "runuser", "setpriv", "sudo"}
SEPARATORS = re.compile(r"\|\||&&|[|;&({`]|\$\(|\bthen\b|\bdo\b|\belse\b|"
                        r"\bif\b|\bwhile\b|\buntil\b|\belif\b|!\s")
NAME = re.compile(r"^[A-Za-z_][\w.+-]*$")
HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_]\w*)\1")
SBIN = ["/usr/local/sbin", "/usr/sbin", "/sbin"]


def tracked(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                         capture_output=True).stdout.decode()
    return sorted(f for f in out.split("\0") if f)


def is_shell(root, path):
    if path.endswith(".sh"):
        return True
    try:
        with open(os.path.join(root, path), "rb") as f:
            first = f.readline()
    except OSError:
        return False
    return first.startswith(b"#!") and (b"sh" in first.split(b"/")[-1].split()[0]
                                         if first.split(b"/")[-1].split() else False)


def functions(text):
    return set(re.findall(r"^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)", text, re.M))


def shell_code(text):
    """The code of a shell script: quoted strings blanked (except $(...)
    inside double quotes), comments and here-document bodies removed.
    Newlines are kept, so line numbers stay."""
    out = []
    stack = ["code"]       # code | dq | sub (with its paren depth in depth)
    depth = []
    pending = []           # here-document end words seen on this line
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        ctx = stack[-1]
        if c == "\\" and i + 1 < n:
            out.append("  " if ctx == "dq" or text[i + 1] != "\n" else " \n")
            i += 2
            continue
        if c == "\n":
            out.append("\n")
            i += 1
            if pending and ctx != "dq":
                for end in pending:
                    while i < n:
                        j = text.find("\n", i)
                        j = n if j < 0 else j
                        line = text[i:j]
                        i = j + 1
                        out.append("\n")
                        if line.strip() == end:
                            break
                pending = []
            continue
        if ctx == "dq":
            if c == '"':
                stack.pop()
                out.append("_")
            elif text.startswith("$(", i) and not text.startswith("$((", i):
                stack.append("sub")
                depth.append(1)
                out.append("$(")
                i += 2
                continue
            else:
                out.append("\n" if c == "\n" else "_")
            i += 1
            continue
        # code or sub
        if c == "'":
            j = text.find("'", i + 1)
            j = n - 1 if j < 0 else j
            out.append(re.sub(r"[^\n]", "_", text[i:j + 1]))
            i = j + 1
            continue
        if c == '"':
            stack.append("dq")
            out.append("_")
            i += 1
            continue
        if c == "#" and (i == 0 or text[i - 1] in " \t\n;"):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("<<", i) and not text.startswith("<<<", i):
            m = HEREDOC.match(text, i)
            if m:
                pending.append(m.group(2))
                out.append(" " * (m.end() - i))
                i = m.end()
                continue
        if ctx == "arr" and c not in "'\"#":
            if c == ")":
                stack.pop()
            out.append("_")
            i += 1
            continue
        if text.startswith("=(", i):
            # an array assignment: its words are data, not commands
            stack.append("arr")
            out.append("__")
            i += 2
            continue
        if text.startswith("$(", i):
            stack.append("sub")
            depth.append(1)
            out.append("$(")
            i += 2
            continue
        if ctx == "sub":
            if c == "(":
                depth[-1] += 1
            elif c == ")":
                depth[-1] -= 1
                if depth[-1] == 0:
                    depth.pop()
                    stack.pop()
                    out.append(" ")
                    i += 1
                    continue
        out.append(c)
        i += 1
    return "".join(out)


CASE_PATTERN = re.compile(r"^\s*[^()\s][^()]*\)(\s|$)")


def shell_lines(text):
    """(line number, code) of a shell script."""
    for n, code in enumerate(shell_code(text).split("\n"), 1):
        code = CASE_PATTERN.sub(" ", code)
        yield n, code


def first_words(code):
    for seg in SEPARATORS.split(code):
        words = seg.split()
        while words:
            w = words[0]
            if re.match(r"^[A-Za-z_]\w*=", w):
                words.pop(0)
            elif w == "command" and len(words) > 1 and words[1] in ("-v", "-V"):
                words = []      # a look-up, not a run
            elif w in WRAPPERS:
                yield words.pop(0)
                while words and (words[0].startswith("-") or words[0].isdigit()):
                    words.pop(0)
            else:
                break
        if words:
            yield words[0]


def makefile_lines(text):
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith("\t"):
            code = shell_code(line.lstrip("\t@-+ ").replace("$$", "$"))
            yield n, CASE_PATTERN.sub(" ", code)
        else:
            # $(shell ...) outside recipes
            for m in re.finditer(r"\$\(shell ([^)]*)\)", line):
                yield n, m.group(1)


def which(cmd):
    p = shutil.which(cmd)
    if p:
        return p
    for d in SBIN:
        c = os.path.join(d, cmd)
        if os.access(c, os.X_OK):
            return c
    return None


def candidates(cmd):
    """Where CMD may live, in the order tried; usrmerge variants included."""
    paths = [os.path.join(d, cmd) for d in ("/usr/bin", "/bin", "/usr/sbin", "/sbin")]
    w = which(cmd)
    if w:
        paths += [w, os.path.realpath(w)]
    return [p for p in paths if os.path.exists(p)]


OWNERS = {}


def load_owners(paths):
    """One `dpkg -S` for every path: {path: package}."""
    todo = sorted(set(paths) - set(OWNERS))
    if not todo:
        return
    r = subprocess.run(["dpkg", "-S"] + todo, capture_output=True, text=True)
    for line in r.stdout.splitlines():
        pkgs, _, f = line.partition(": ")
        if "diversion" in pkgs:
            continue
        OWNERS.setdefault(f, pkgs.split(",")[0].split(":")[0].strip())


def owner(cmd):
    """The package that ships CMD in a standard directory (or where PATH
    finds it)."""
    for p in candidates(cmd):
        if p in OWNERS:
            return OWNERS[p]
    return None


def deps_packages(path):
    text = open(path).read()
    m = re.search(r"PACKAGES=\((.*?)\n\)", text, re.S)
    if not m:
        sys.exit(f"{path}: no PACKAGES=( ... ) array")
    words = []
    for line in m.group(1).split("\n"):
        words += re.sub(r"#.*", "", line).split()
    # "$LSMCONV_DISTRO": the default target's package (scripts/lib.sh), the
    # one a plain `make`/`make check` installs.
    lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib.sh")
    if os.path.exists(lib):
        m = re.search(r"^LSMCONV_DEFAULT_TARGET=(\S+)$", open(lib).read(), re.M)
        if m:
            words = ["linux-source-" + m.group(1) if w == '"$LSMCONV_DISTRO"' else w
                     for w in words]
    return words


def dpkg_db():
    fmt = "${Package}\t${Essential}\t${Priority}\t${Depends}\t${Pre-Depends}\t${Provides}\t${db:Status-Status}\n"
    out = subprocess.run(["dpkg-query", "-W", "-f", fmt], check=True,
                         capture_output=True, text=True).stdout
    db = {}
    provides = {}
    for line in out.splitlines():
        name, ess, prio, dep, pre, prov, status = (line.split("\t") + [""] * 7)[:7]
        name = name.split(":")[0]
        db[name] = (ess == "yes", prio, dep + ", " + pre, status == "installed")
        for p in prov.split(","):
            p = p.strip().split(" ")[0].split(":")[0]
            if p:
                provides.setdefault(p, []).append(name)
    return db, provides


def closure(roots, db, provides):
    """roots + every installed package their Depends/Pre-Depends pull in."""
    seen = {}
    todo = [(r, None) for r in roots]
    for r in roots:   # the roots themselves first: no root is "a dependency"
        seen[r] = None
        if r in db:
            todo.append((r, r))
    todo = [t for t in todo if t[1] is not None]
    while todo:
        p, why = todo.pop()
        if p in seen and (seen[p] is not None or why != p):
            continue
        if p not in seen:
            seen[p] = why
        if p not in db:
            continue
        for alt in db[p][2].split(","):
            names = [a.strip().split(" ")[0].split(":")[0] for a in alt.split("|")]
            names = [n for n in names if n]
            for n in names:
                real = [n] if n in db and db[n][3] else [
                    q for q in provides.get(n, []) if db.get(q, (0, 0, 0, False))[3]]
                if real:
                    for q in real:
                        todo.append((q, why))
                    break
    return seen


def commands(root):
    """{command: sorted list of 'file:line'} for the tracked code."""
    found = {}

    def add(cmd, where, defined):
        if cmd in SHELL_WORDS or cmd in defined or not NAME.match(cmd):
            return
        if not which(cmd):
            return
        found.setdefault(cmd, []).append(where)

    for f in tracked(root):
        if f.startswith("qemu-boot/guest/") or f.startswith("tests/deps/") and f.endswith(".tsv"):
            continue
        full = os.path.join(root, f)
        if not os.path.isfile(full):
            continue
        base = os.path.basename(f)
        if base == "Makefile" or base.endswith(".mk"):
            text = open(full, errors="replace").read()
            for n, code in makefile_lines(text):
                for w in first_words(code):
                    add(w, f"{f}:{n}", set())
        elif is_shell(root, f):
            text = open(full, errors="replace").read()
            defined = functions(text)
            for n, code in shell_lines(text):
                for w in first_words(code):
                    add(w, f"{f}:{n}", defined)
        elif f.endswith(".py") or f.endswith(".cocci"):
            text = open(full, errors="replace").read()
            if "subprocess" not in text and "os.system" not in text:
                continue
            for m in re.finditer(r"\[\s*(['\"])([A-Za-z_][\w.+-]*)\1\s*,", text):
                n = text.count("\n", 0, m.start()) + 1
                add(m.group(2), f"{f}:{n}", set())
    return found


def indirect(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        if len(cols) != 3:
            sys.exit(f"{path}: expected 3 TAB-separated columns: {line!r}")
        rows.append(cols)
    return rows


def main(argv):
    root = argv[1]
    deps_sh = argv[2] if len(argv) > 2 else os.path.join(root, "scripts/deps.sh")
    pkgs = deps_packages(deps_sh)
    db, provides = dpkg_db()
    base = [p for p, v in db.items() if v[3] and (v[0] or v[1] == "required")]
    allowed = closure(pkgs + base, db, provides)
    cmds = commands(root)
    table = indirect(os.path.join(HERE, "indirect.tsv"))
    for kind, name, why in table:
        if kind == "cmd":
            cmds.setdefault(name, []).append("indirect: " + why)
    used = {p: [] for p in pkgs}
    load_owners([p for c in cmds for p in candidates(c)])
    for cmd in sorted(cmds):
        pkg = owner(cmd)
        if pkg is None:
            how = "MISSING (not installed here, or from no package)"
        elif pkg in pkgs:
            how = "deps"
        elif pkg in allowed:
            if allowed[pkg] is None:
                how = "essential"
            else:
                how = "dependency of " + allowed[pkg]
        else:
            how = "MISSING"
        if pkg in used:
            used[pkg].append(cmd)
        elif pkg in allowed and allowed[pkg] in used:
            used[allowed[pkg]].append(cmd)
        print(f"cmd\t{cmd}\t{pkg or '-'}\t{how}\t{cmds[cmd][0]}")
    for kind, name, why in table:
        if kind == "pkg" and name in used:
            used[name].append(why)
    for p in pkgs:
        print(f"pkg\t{p}\t" + (", ".join(sorted(set(used[p]))) or "UNUSED"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
