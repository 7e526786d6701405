#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seed reconstruction test helper for lsmconv.

The seeds are the 2015 stacking series (../shared/seeds/).  Two of them
rewrite legacy code mechanically, which is what lsmconv automates:

  003 "Introduce security hook calling macros": every
      `security_ops->X(args)` of 4.0's security/security.c becomes
      `call_int_hook(X, 0, args)` / `call_void_hook(X, args)`;
  004 "Add security module hook list heads": every `.X = fn` entry of the
      module ops initializers becomes `LSM_HOOK_INIT(X, fn)`.

  seedcheck.py extract SEEDDIR OUTDIR
      Rebuild legacy fragments from the minus side of the two patches
      (complete functions of security.c from 003; the ops initializer of
      each module from 004) into OUTDIR/legacy/, and the matching plus
      side into OUTDIR/expected/.  Prints what it built.

  seedcheck.py compare OUTDIR CONVERTED TARGET
      Compare the converted fragments (CONVERTED/) with the plus side:
      each call conversion of 003 (per function: hook, macro, arguments,
      IRC) and each hook/function pair of 004.  Where the target differs
      from 2015 on purpose the target wins: an IRC other than 2015's 0 is
      accepted when the target's own security/security.c uses it for the
      hook; hooks the target does not have, and hooks the special table
      leaves for a human (class loop), are expected to stay unconverted
      (and reported).  Prints TAP lines (numbering from 1) and `# ` notes;
      exits 1 when anything does not match.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cocci"))
from lsmconv import hooks as hookmod, special as specialmod  # noqa: E402

SEC_FILES = ("security/security.c",)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def hunks(patch, with_header=False):
    """Yield (file, old_lines, new_lines[, header]) per hunk of a unified diff."""
    cur = None
    lines = patch.split("\n")
    i = 0
    while i < len(lines):
        l = lines[i]
        if l.startswith("+++ b/"):
            cur = l[6:].strip()
        elif l.startswith("@@ ") and cur:
            m = re.match(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@ ?(.*)", l)
            header = m.group(3)
            nold = int(m.group(1) or 1)
            nnew = int(m.group(2) or 1)
            old, new = [], []
            i += 1
            while i < len(lines) and (nold > 0 or nnew > 0):
                h = lines[i]
                if h.startswith("\\"):
                    i += 1
                    continue
                tag, text = (h[:1], h[1:]) if h else (" ", "")
                if tag == " ":
                    old.append(text)
                    new.append(text)
                    nold -= 1
                    nnew -= 1
                elif tag == "-":
                    old.append(text)
                    nold -= 1
                elif tag == "+":
                    new.append(text)
                    nnew -= 1
                else:
                    break
                i += 1
            yield (cur, old, new, header) if with_header else (cur, old, new)
            continue
        i += 1


SIG = re.compile(r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w \*]*?\b(\w+)\s*\(")


def functions(lines):
    """Complete top-level functions in a run of lines: {name: text}."""
    out, i = {}, 0
    while i < len(lines):
        m = SIG.match(lines[i])
        if m and not lines[i].rstrip().endswith(";"):
            name = m.group(1)
            j = i
            while j < len(lines) and lines[j] != "}":
                if j > i and SIG.match(lines[j]) and lines[j] != lines[i]:
                    break
                j += 1
            if j < len(lines) and lines[j] == "}":
                body = "\n".join(lines[i:j + 1])
                if "{" in body:
                    out[name] = body
                i = j + 1
                continue
        i += 1
    return out


INIT = re.compile(r"^(?:static\s+)?(?:const\s+)?struct security_operations (\w+) = \{")


def initializers(lines):
    out = {}
    for i, l in enumerate(lines):
        m = INIT.match(l)
        if m:
            for j in range(i + 1, len(lines)):
                if lines[j] == "};":
                    out[m.group(1)] = "\n".join(lines[i:j + 1])
                    break
    return out


def extract(seeddir, outdir):
    seeds = {}
    for f in os.listdir(seeddir):
        if re.match(r"00[34]-.*\.patch$", f):
            seeds[f[:3]] = os.path.join(seeddir, f)
    if set(seeds) != {"003", "004"}:
        sys.stderr.write("seedcheck: seeds 003 and 004 not found in %s\n" % seeddir)
        return 2
    os.makedirs(os.path.join(outdir, "legacy"), exist_ok=True)
    os.makedirs(os.path.join(outdir, "expected"), exist_ok=True)
    # 003: security.c functions
    old_f, new_f = {}, {}
    partial = 0
    for path, old, new, header in hunks(read(seeds["003"]), with_header=True):
        if path not in SEC_FILES:
            continue
        old_f.update(functions(old))
        new_f.update(functions(new))
        # A hunk that starts inside a function: git names the function in
        # the hunk header.  Rebuild it as header + "{" + the hunk's lines up
        # to the closing brace, dropping preprocessor lines whose opening
        # part is not in the hunk.  The lines between the signature and the
        # hunk are unknown; they hold no security_ops call (else they would
        # be in the hunk), so the rebuilt function has every call.
        header = header.rstrip()
        if header.count("(") == header.count(")") + 1 and header.endswith(","):
            # git cut a long signature at the end of its first line: close
            # it as a variadic list, which keeps the fragment valid C
            header += " ...)"
        m = SIG.match(header)
        if m and header.count("(") == header.count(")") and header.endswith(")"):
            name = m.group(1)
            if name in old_f:
                continue
            sides = []
            for lines in (old, new):
                if "}" in lines:
                    body = lines[:lines.index("}") + 1]
                else:
                    # the function goes on after the hunk: keep the hunk
                    # up to its last complete statement and close the
                    # blocks still open
                    body = list(lines)
                    while body and not re.search(r"[;{}]\s*$", body[-1]):
                        body.pop()
                    if not body:
                        break
                    opened = sum(l.count("{") - l.count("}") for l in body)
                    if "{" in body:
                        opened -= 1
                    body += ["\t}"] * max(opened, 0) + ["}"]
                if any(SIG.match(l) for l in body):
                    break
                if "{" in body:
                    # the hunk starts in the signature: its tail is replaced
                    # by the header's (variadic) parameter list
                    body = body[body.index("{") + 1:]
                depth, keep = 0, []
                for l in body[:-1]:
                    st = l.strip()
                    if re.match(r"#\s*if", st):
                        depth += 1
                    elif re.match(r"#\s*(else|elif)\b", st) and depth == 0:
                        continue
                    elif re.match(r"#\s*endif\b", st):
                        if depth == 0:
                            continue
                        depth -= 1
                    keep.append(l)
                sides.append("%s\n{\n%s\n}" % (header.rstrip(), "\n".join(keep)))
            if len(sides) == 2 and "security_ops->" in sides[0]:
                old_f[name], new_f[name] = sides
                partial += 1
    names = [n for n in old_f if n in new_f and "security_ops->" in old_f[n]]
    head = ("// Rebuilt by tests/seeds/seedcheck.py from the minus side of seed 003.\n"
            "#include <linux/security.h>\n\n"
            "static struct security_operations *security_ops;\n")
    with open(os.path.join(outdir, "legacy", "security.c"), "w") as f:
        f.write(head + "".join("\n" + old_f[n] + "\n" for n in names))
    with open(os.path.join(outdir, "expected", "security.json"), "w") as f:
        json.dump({n: new_f[n] for n in names}, f, indent=1)
    print("seed 003: %d wrapper functions rebuilt (%d from a hunk that starts "
          "inside the function)" % (len(names), partial))
    # 004: ops initializers
    count = 0
    for path, old, new in hunks(read(seeds["004"])):
        oi, ni = initializers(old), initializers(new)
        for ops, text in oi.items():
            if ops not in ni:
                continue
            base = ops
            with open(os.path.join(outdir, "legacy", base + ".c"), "w") as f:
                f.write("// Rebuilt by tests/seeds/seedcheck.py from the minus side "
                        "of seed 004 (%s).\n#include <linux/security.h>\n\n%s\n"
                        % (path, text))
            with open(os.path.join(outdir, "expected", base + ".txt"), "w") as f:
                f.write(ni[ops] + "\n")
            count += 1
    print("seed 004: %d ops initializers rebuilt" % count)
    return 0


CALL = re.compile(r"\b(call_int_hook|call_void_hook)\s*\(")


def calls(text):
    """[(macro, hook, irc, args)] in order, whitespace-normalised."""
    out = []
    for m in CALL.finditer(text):
        i, depth, cur, parts = m.end(), 1, [], []
        while i < len(text) and depth:
            c = text[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    break
            if c == "," and depth == 1:
                parts.append("".join(cur))
                cur = []
            else:
                cur.append(c)
            i += 1
        parts.append("".join(cur))
        parts = [" ".join(p.split()) for p in parts]
        if m.group(1) == "call_int_hook":
            hook, irc, args = parts[0], parts[1], parts[2:]
        else:
            hook, irc, args = parts[0], None, parts[1:]
        out.append((m.group(1), hook, irc, ", ".join(a for a in args if a)))
    return out


def target_ircs(target):
    text = read(os.path.join(target, "security/security.c"))
    ircs = {}
    for macro, hook, irc, _ in calls(text):
        if irc is not None:
            ircs.setdefault(hook, set()).add(irc)
    return ircs


def compare(outdir, conv, target):
    hooks = set(hookmod.load(target))
    ircs = target_ircs(target)
    loop = {h for h, sp in specialmod.load().items() if sp.cls == "loop"}
    n, failed = 0, 0

    def tap(ok, what):
        nonlocal n, failed
        n += 1
        if not ok:
            failed += 1
        print("%s %d - %s" % ("ok" if ok else "not ok", n, what))

    # 003
    exp = json.load(open(os.path.join(outdir, "expected", "security.json")))
    got_text = read(os.path.join(conv, "security.c"))
    got_f = functions(got_text.split("\n"))
    st = {"same": 0, "target_irc": 0, "absent": 0, "loop": 0, "bad": 0}
    notes, bad = [], []
    for fn, text in exp.items():
        e_calls = calls(text)
        g_calls = calls(got_f.get(fn, ""))
        g_iter = list(g_calls)
        for macro, hook, irc, args in e_calls:
            if hook not in hooks or hook in loop:
                left = "security_ops->%s(" % hook in got_f.get(fn, "")
                key = "absent" if hook not in hooks else "loop"
                if left:
                    st[key] += 1
                else:
                    st["bad"] += 1
                    bad.append("%s: %s should have been left for a human" % (fn, hook))
                continue
            match = None
            for g in g_iter:
                if g[0] == macro and g[1] == hook and g[3] == args:
                    match = g
                    break
            if match is None:
                st["bad"] += 1
                bad.append("%s: %s(%s, %s, %s) not found in the output"
                           % (fn, macro, hook, irc, args))
                continue
            g_iter.remove(match)
            if match[2] == irc:
                st["same"] += 1
            elif match[2] in ircs.get(hook, set()):
                st["target_irc"] += 1
                notes.append("%s: %s IRC %s (2015: %s) as in the target's security.c"
                             % (fn, hook, match[2], irc))
            else:
                st["bad"] += 1
                bad.append("%s: %s IRC %s, 2015 had %s and the target uses %s"
                           % (fn, hook, match[2], irc,
                              ", ".join(sorted(ircs.get(hook, []))) or "nothing"))
    total = sum(st.values())
    tap(st["bad"] == 0,
        "seed 003: %d/%d call conversions match (%d as 2015, %d with the target's "
        "IRC); %d hooks not in the target and %d special-dispatch hooks left for "
        "a human" % (st["same"] + st["target_irc"], total - st["absent"] - st["loop"],
                     st["same"], st["target_irc"], st["absent"], st["loop"]))
    for l in notes:
        print("# " + l)
    for l in bad:
        print("# MISMATCH " + l)
    # 004
    pair = re.compile(r"LSM_HOOK_INIT\(\s*(\w+)\s*,\s*(\w+)\s*\)")
    legacy = re.compile(r"^\s*\.(\w+)\s*=\s*(\w+)\s*,", re.M)
    for f in sorted(os.listdir(os.path.join(outdir, "expected"))):
        if not f.endswith(".txt"):
            continue
        ops = f[:-4]
        e = [(h, fn) for h, fn in pair.findall(read(os.path.join(outdir, "expected", f)))
             if h != "name"]
        g_text = read(os.path.join(conv, ops + ".c"))
        g = set(pair.findall(g_text))
        g_left = set(legacy.findall(g_text))
        same = sum(1 for p in e if p[0] in hooks and p in g)
        absent = sum(1 for p in e if p[0] not in hooks and p in g_left)
        miss = [p for p in e if not ((p[0] in hooks and p in g) or
                                     (p[0] not in hooks and p in g_left))]
        extra = [p for p in g if p not in set(e)]
        tap(not miss and not extra,
            "seed 004 %s: %d/%d hook/function pairs match; %d hooks not in the "
            "target left as .hook = fn" % (ops, same, len(e) - absent, absent))
        for p in miss:
            print("# MISMATCH %s: LSM_HOOK_INIT(%s, %s) expected" % (ops, p[0], p[1]))
        for p in extra:
            print("# MISMATCH %s: unexpected LSM_HOOK_INIT(%s, %s)" % (ops, p[0], p[1]))
    print("# seed matches: 003 %d call conversions, 004 pairs per module above"
          % (st["same"] + st["target_irc"]))
    return 1 if failed else 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "extract":
        return extract(sys.argv[2], sys.argv[3])
    if len(sys.argv) == 5 and sys.argv[1] == "compare":
        return compare(*sys.argv[2:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
