#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A small generated-input fuzzer for `convert.sh tree` (issue 29).

It writes many random legacy modules (random legal C shapes, random path
names) into one kernel-like tree, converts them in one run of
`convert.sh tree DIR --out OUT --items ITEMS` (spatch per case would be too
slow), converts the output once more, and checks each module's invariants
from the items and the files:

    exit         the run exits 0 or 1, no traceback (a run that exits
                 otherwise is split in halves until the cases that cause
                 it are found; the others are checked from the runs
                 without them); 1 exactly when there is a todo
    all-clear    a module without a todo has no legacy API left in its
                 output (LEGACY: lsmconv.port's LEGACY_TOKENS, plus
                 security_initcall and security_module_enable where the
                 target has neither; comments and literals do not count:
                 lsmconv.cscan.code_text)
    unnamed      every legacy line left in the output is a todo item's
                 file:line
    claim        every change an item claims is in the output at its line
                 (entry: LSM_HOOK_INIT(hook, fn); reg: the call after
                 "->"; a file record "changed"/"unchanged" agrees with the
                 bytes), and every entry the generator wrote with a target
                 hook is LSM_HOOK_INIT(hook, fn) in the output or a todo
    input        the input tree is byte-identical after the --out run
    second-run   converting the output again changes nothing (same bytes,
                 no file record "changed", no finding but todos)
    bytes        line endings (CRLF or LF), a UTF-8 BOM and Latin-1 bytes
                 in comments survive

The seed is fixed (LSMCONV_FUZZ_SEED, default 29), and so is the number of
cases (LSMCONV_FUZZ_CASES, default 200); LSMCONV_FUZZ_BUDGET (seconds, or
--budget) stops narrowing down a failed run once it is spent (its cases
then each fail "exit").  Case K of seed S is the same
module whatever the number of cases: `fuzz.py run --only K` reruns it alone
(`--keep DIR` keeps its files: DIR/b/in tree/ the input, DIR/b/out/ the
output, DIR/b/items.jsonl, and the second run's DIR/b/second/, out2/,
items2.jsonl; a run narrowed down has more such directories).

    fuzz.py run --target TREE [--seed S] [--cases N] [--only K[,K...]]
                [--convert PATH] [--work DIR] [--keep DIR] [--json FILE]
                [--jobs N] [--budget SECONDS]
        exit 0 when every case holds every invariant, 1 when one fails
        (each failure printed with the seed, the case, its files and the
        command that reruns it), 2 on a usage error
    fuzz.py gen --target TREE --out DIR [--seed S] [--cases N] [--only K]
        only write the cases' tree
    fuzz.py show --json FILE [--max N] INVARIANT
        the failures of one invariant in a run's --json as TAP diagnostics
        (N cases at most); exit 1 when there is one
    fuzz.py --selftest
        each invariant shown to catch a real breakage: a toy conversion of
        a generated module passes, and each mutation of it (a dropped line,
        a wrong item, legacy left, exit 0 with a todo, a traceback, an
        input touched, a second run that changes, CRLF or Latin-1 lost)
        fails the invariant it breaks; and the runner itself, through a
        fake convert.sh (`fuzz.py --fake-convert`, the toy conversion with
        the breakage LSMCONV_FUZZ_FAKE names): unbroken, no case fails; a
        dropped line, an exit 2 naming one file, an input written to, a
        second run that changes each fail that case only; no spatch
        needed (LSMCONV_FUZZ_TARGET: the target, default the distro tree)

stdlib only; lsmconv's package (cocci/) gives the hook table and the C
scanner.
"""
import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "cocci"))

from lsmconv import capability  # noqa: E402
from lsmconv import cscan  # noqa: E402
from lsmconv import hooks as H  # noqa: E402
from lsmconv import form, source  # noqa: E402
from lsmconv.port import LEGACY_TOKENS, load_renames  # noqa: E402

DEFAULT_SEED = 29
HOOK_DEFS = "include/linux/lsm_hook_defs.h"
DEFAULT_CASES = 200
NEAR = 3
INVARIANTS = ("exit", "all-clear", "unnamed", "claim", "input", "second-run", "bytes")
BOM = b"\xef\xbb\xbf"
# The issue-29 defect each shape was first made to catch (all fixed since):
# a failing case names those of its shapes, where to look first.
SHAPE_DEFECTS = {
    "bom": "a UTF-8 BOM lost #include <linux/lsm_hooks.h> or the BOM",
    "read_mostly": "__read_mostly kept beside __lsm_ro_after_init",
    "cond_reg": "two ops structs registered conditionally by one init",
    "ops_define": "an ops struct initialized by a #define",
    "header": "legacy headers under security/ not read by tree mode",
    "symlink": "symlinked sources not read by tree mode",
    "long_name": "file names over ~220 bytes",
    "crlf": "CRLF not round-tripped",
    "latin1": "Latin-1 not round-tripped",
    "secondary_ops": "a declaration of a struct security_operations object not a todo",
    "ops_decl": "a declaration of a struct security_operations object not a todo",
}


# --- the target ---------------------------------------------------------------

def legacy_words(target):
    """The legacy API's identifiers on this target (see the docstring)."""
    words = list(LEGACY_TOKENS)
    if not form.initcall(target):
        words.append("security_initcall")
    if not re.search(r"\bsecurity_module_enable\s*\(", "\n".join(
            source.text(os.path.join(target, rel)) for rel in
            ("include/linux/init.h", "include/linux/lsm_hooks.h", "include/linux/security.h"))):
        words.append("security_module_enable")
    return words


def legacy_only_hooks():
    """Hook names of the legacy API the target no longer has (renames.tsv)."""
    return [old for old in load_renames() if re.match(r"^\w+$", old)]


class Target:
    def __init__(self, tree):
        self.tree = tree
        self.hooks = H.load(tree)
        self.names = sorted(self.hooks)
        self.legacy = legacy_words(tree)
        self.old = [h for h in legacy_only_hooks() if h not in self.hooks]
        self.legacy_re = re.compile(r"\b(?:%s)\b" % "|".join(self.legacy))
        self.cap = capability.hooks(tree)


# --- the generator --------------------------------------------------------------

class Case:
    """One generated module: its files (tree-relative path -> bytes),
    symlinks (path -> link text), what the generator knows of it."""

    def __init__(self, seed, k):
        self.seed, self.k = seed, k
        self.files = {}
        self.links = {}
        self.shapes = []
        self.entries = []     # (path, hook, fn): target-hook entries written
        self.crlf = False
        self.bom = False
        self.latin1 = []      # byte strings that must survive
        self.latin1_ok = False

    def paths(self):
        return sorted(set(self.files) | set(self.links))

    def checked(self):
        """The paths tree mode is asked to convert (under security/; a
        symlink's target elsewhere in the tree is checked through it)."""
        return [p for p in self.paths() if p.startswith("security/")]

    def describe(self):
        shapes = sorted(set(self.shapes), key=self.shapes.index)
        return "case %d of seed %d (%s)" % (self.k, self.seed, ", ".join(shapes) or "plain")


def _ident(rng, n=None):
    n = n or rng.randint(3, 8)
    return rng.choice("abcdefghijklmnopqrstuvwxyz") + "".join(
        rng.choice("abcdefghijklmnopqrstuvwxyz0123456789_") for _ in range(n - 1))


def _component(rng, k, case, first):
    """One path component (str; non-UTF-8 bytes as surrogate escapes)."""
    tag = "fz%03d" % k if first else _ident(rng, 4)
    r = rng.random()
    if r < 0.45:
        return tag
    if r < 0.55:
        return tag + " sp ace"
    if r < 0.65:
        case.shapes.append("unicode_path")
        return tag + "-\u00fcn\u00ef-\u6a21\u5757"
    if r < 0.72:
        return "-" + tag
    if r < 0.77:
        case.shapes.append("latin1_path")
        return os.fsdecode(tag.encode() + b"-caf\xe9")
    if r < 0.82:
        return tag + "-'q\"$x"
    return tag + "-" + _ident(rng, rng.randint(6, 30))


def _path(rng, k, case):
    parts = [_component(rng, k, case, True)]
    for _ in range(rng.choice((0, 0, 0, 1, 2, 3))):
        parts.append(_component(rng, k, case, False))
    if rng.random() < 0.04:
        case.shapes.append("long_name")
        stem = "fz%03d-" % k + "l" * rng.randint(150, 240)
    else:
        stem = _component(rng, k, case, False)
    return "security/" + "/".join(parts), stem


def _comment(rng, case):
    if case.latin1_ok and rng.random() < 0.3:
        b = rng.choice((b"caf\xe9", b"na\xefve", b"\xa9 1999 J\xf6rg", b"\xb5s \xb1 2"))
        case.latin1.append(b)
        return "/* " + os.fsdecode(b) + " */"
    return rng.choice(("/* networking */", "// file hooks", "/* see below */",
                       "/* TODO(vendor): review */", "/*\n\t * two lines\n\t */"))


def _fn_def(hook, fn, static=True):
    ret = hook.ret.strip()
    args = hook.args.strip() or "void"
    body = "" if ret == "void" else "\treturn 0;\n"
    return "%s%s %s(%s)\n{\n%s}\n" % ("static " if static else "", ret, fn, args, body)


def _fn_proto(hook, fn):
    return "static %s %s(%s);\n" % (hook.ret.strip(), fn, hook.args.strip() or "void")


def gen_case(target, seed, k, plain=False):
    """Case k of seed: the same module whatever else is generated."""
    rng = random.Random("%d:%d" % (seed, k))
    rng2 = random.Random("%d:%d:2" % (seed, k))   # shapes added later
    case = Case(seed, k)
    shape = (lambda p: False) if plain else (lambda p: rng.random() < p)
    case.crlf = shape(0.15)
    case.bom = shape(0.08)
    case.latin1_ok = shape(0.25)
    for flag in ("crlf", "bom"):
        if getattr(case, flag):
            case.shapes.append(flag)
    if plain:
        d, stem = "security/fz%03d" % k, "plain"
    else:
        d, stem = _path(rng, k, case)
    lsm = _ident(rng, rng.randint(3, 7)) + "%03d" % k
    nops = 2 if shape(0.08) else 1
    cond_reg = nops == 2 and shape(0.5)
    if cond_reg:
        case.shapes.append("cond_reg")
    out = []
    out.append("// SPDX-License-Identifier: GPL-2.0")
    out.append("/*")
    out.append(" * fuzz case %d of seed %d" % (k, seed))
    if case.latin1_ok:
        b = rng.choice((b"Copyright \xa9 2009 J\xf6rg", b"na\xefve"))
        case.latin1.append(b)
        out.append(" * " + os.fsdecode(b))
    out.append(" */")
    out.append("")
    out.append("#include <linux/init.h>")
    out.append("#include <linux/security.h>")
    if shape(0.3):
        out.append("#include <linux/module.h>")
    out.append("")
    after = []      # definitions after the ops structs
    secondary = shape(0.08)
    if secondary:
        case.shapes.append("secondary_ops")
        out.append("static struct security_operations *secondary_ops;")
        out.append("")
    ops_decl = shape(0.06)
    if ops_decl:
        # a declaration of an ops object the module keeps or reads
        case.shapes.append("ops_decl")
        out.append(rng.choice(("extern struct security_operations *security_ops;",
                               "static struct security_operations *saved_ops;",
                               "static struct security_operations %s_orig_ops;" % lsm)))
        out.append("")
    ops_names = []
    for o in range(nops):
        ops = "%s%s_%s" % (lsm, "" if o == 0 else "_b", rng.choice(("security_ops", "ops", "sec_ops")))
        ops_names.append(ops)
        hooks = rng.sample(target.names, rng.randint(1 if plain else 0, 6 if plain else 12))
        # hooks capability registers too, their functions asking
        # capability first (rule 40); drawn from rng2, a stream of their
        # own, so that every other shape of a seed stays as it was
        capchain = not plain and target.cap and rng2.random() < 0.5
        extra = []
        if capchain:
            extra = [h for h in rng2.sample(sorted(target.cap), 2) if h not in hooks]
        old = rng.sample(target.old, 1) if target.old and shape(0.1) else []
        if old:
            case.shapes.append("legacy_only_hook")
        defs_after = shape(0.4)
        protos = defs_after or shape(0.2)
        fns = {}
        for h in hooks + extra:
            fns[h] = "%s_%s" % (lsm if o == 0 else lsm + "_b", h)
        if protos:
            for h in hooks + extra:
                out.append(_fn_proto(target.hooks[h], fns[h]).rstrip("\n"))
            out.append("")
        defs = []
        for h in hooks + extra:
            fn = fns[h]
            hk = target.hooks[h]
            args = [p[1] for p in hk.params if p[1]]
            # (the draw from rng only for the hooks rng drew: see extra)
            if h not in extra and secondary and hk.ret.strip() == "int" and rng.random() < 0.5:
                defs.append("static int %s(%s)\n{\n\treturn secondary_ops->%s(%s);\n}\n"
                            % (fn, hk.args.strip() or "void", h, ", ".join(args)))
            elif h in target.cap and capchain and hk.ret.strip() == "int":
                case.shapes.append("cap_chain")
                rc = rng2.choice(("rc", "error"))
                cond = rng2.choice(("%s", "%s != 0", "%s < 0"))
                defs.append("static int %s(%s)\n{\n\tint %s;\n\n\t%s = %s(%s);\n\tif (%s)\n"
                            "\t\treturn %s;\n\treturn 0;\n}\n"
                            % (fn, hk.args.strip() or "void", rc, rc, target.cap[h],
                               ", ".join(args), cond % rc, rc))
            else:
                defs.append(_fn_def(hk, fn))
        for h in old:
            fns[h] = "%s_%s" % (lsm, h)
            defs.append("static int %s(void)\n{\n\treturn 0;\n}\n" % fns[h])
            if protos:
                out.insert(len(out) - 1, "static int %s(void);" % fns[h])
        if not defs_after:
            for dtext in defs:
                out.extend(dtext.rstrip("\n").split("\n"))
                out.append("")
        else:
            case.shapes.append("defs_after")
            after.extend(defs)
        # the ops struct
        storage = "" if plain else rng.choice(("static ", "static ", "static ", "", "static const ",
                                               "const "))
        attr = ""
        if shape(0.08):
            attr = " __read_mostly"
            case.shapes.append("read_mostly")
        entries = [(h, fns[h]) for h in hooks] + [(h, fns[h]) for h in old]
        rng.shuffle(entries)
        for h in extra:
            entries.insert(rng2.randint(0, len(entries)), (h, fns[h]))
        style = "%s = %s," if plain else rng.choice(("%s = %s,", "%s\t\t= %s,", "%s =\t\t%s,",
                                                   "%s=%s,"))
        body = []
        lead = not plain and rng.random() < 0.2
        has_name = plain or rng.random() < 0.8
        name_at = 0 if plain or rng.random() < 0.8 else rng.randint(0, len(entries))
        if lead and not (has_name and name_at == 0):
            # (a comment right before .name goes with it: docs/converter.md, Limits)
            body.append("\t" + _comment(rng, case))
        name = lsm + ("" if o == 0 else "b") + rng.choice(("", "", "-x", "_y"))
        i = 0
        while i <= len(entries):
            if has_name and i == name_at:
                body.append("\t" + style % (".name", '"%s"' % name))
            if i == len(entries):
                break
            r = 0 if plain else rng.random()
            if r > 0.85 and i + 1 < len(entries):
                n = rng.randint(1, min(3, len(entries) - i))
                cfg = "CONFIG_FZ_%s" % _ident(rng, 5).upper()
                case.shapes.append("ifdef")
                body.append(rng.choice(("#ifdef %s", "#if defined(%s)", "#ifndef %s")) % cfg)
                for h, fn in entries[i:i + n]:
                    body.append("\t" + style % ("." + h, fn))
                body.append("#endif /* %s */" % cfg if rng.random() < 0.5 else "#endif")
                i += n
                continue
            if r > 0.75:
                body.append("")
            elif r > 0.65:
                body.append("\t" + _comment(rng, case))
            h, fn = entries[i]
            tail = " /* %s */" % h if r > 0.6 and r <= 0.65 else ""
            body.append("\t" + style % ("." + h, fn) + tail)
            i += 1
        if not plain and rng.random() < 0.1:
            body.append("\t.%s = NULL," % rng.choice(target.names))
            case.shapes.append("null_entry")
        for h, fn in entries:
            if h in target.hooks:
                case.entries.append((h, fn))
        opsdef = ["%sstruct security_operations %s%s = {" % (storage, ops, attr)] + body + ["};"]
        flat = "\n".join(body).split("\n")
        if not plain and not any(l.startswith("#") or "//" in l for l in flat) and shape(0.05):
            case.shapes.append("ops_define")
            mac = "%s_OPS_INIT" % ops.upper()
            out.append("#define %s { \\" % mac)
            out.extend(l + " \\" for l in flat)
            out.append("}")
            out.append("")
            opsdef = ["%sstruct security_operations %s%s = %s;" % (storage, ops, attr, mac)]
        out.extend(opsdef)
        out.append("")
    for dtext in after:
        out.extend(dtext.rstrip("\n").split("\n"))
        out.append("")
    # registration
    init = "%s_init" % lsm
    ret_var = False
    reg = []
    if shape(0.3):
        case.shapes.append("module_enable")
        reg.append("\tif (!security_module_enable(&%s))" % ops_names[0])
        reg.append("\t\treturn 0;")
        reg.append("")
    if secondary:
        reg.append("\tsecondary_ops = security_ops;")
    if cond_reg:
        cfg = "CONFIG_FZ_%s" % _ident(rng, 4).upper()
        reg += ["#ifdef %s" % cfg,
                "\tif (register_security(&%s))" % ops_names[0],
                "\t\tpanic(\"%s: cannot register\\n\");" % lsm,
                "#else",
                "\tif (register_security(&%s))" % ops_names[1],
                "\t\tpanic(\"%s: cannot register\\n\");" % lsm,
                "#endif"]
    else:
        for ops in ops_names:
            form = 0 if plain else rng.randint(0, 4)
            case.shapes.append("reg%d" % form)
            if form == 0:
                reg += ["\tif (register_security(&%s))" % ops,
                        "\t\tpanic(\"%s: cannot register\\n\");" % lsm]
            elif form == 1:
                ret_var = True
                reg += ["\tret = register_security(&%s);" % ops, "\tif (ret)", "\t\treturn ret;"]
            elif form == 2:
                reg += ["\tif (register_security(&%s) < 0) {" % ops,
                        "\t\tprintk(KERN_ERR \"%s: no\\n\");" % lsm, "\t\treturn -EINVAL;", "\t}"]
            elif form == 3:
                reg += ["\tregister_security(&%s);" % ops]
            else:
                reg += ["\tif (register_security(&%s) != 0)" % ops, "\t\tpanic(\"%s\\n\");" % lsm]
    out.append("static int __init %s(void)" % init)
    out.append("{")
    if ret_var:
        out.append("\tint ret;")
        out.append("")
    out.extend(reg)
    out.append("\tprintk(KERN_INFO \"%s: initialized\\n\");" % lsm)
    out.append("\treturn 0;")
    out.append("}")
    out.append("")
    if shape(0.15):
        case.shapes.append("reset")
        out += ["void %s_disable(void)" % lsm, "{", "\treset_security_ops();", "}", ""]
    out.append("security_initcall(%s);" % init)
    text = "\n".join(out) + "\n"
    data = text.encode("utf-8", "surrogateescape")
    if case.crlf:
        data = data.replace(b"\n", b"\r\n")
    if case.bom:
        data = BOM + data
    if case.latin1:
        case.shapes.append("latin1")
    main = d + "/" + stem + ".c"
    if not plain and shape(0.05):
        # the module's source is elsewhere in the tree, linked from security/
        case.shapes.append("symlink")
        real = "src/fz%03d/%s.c" % (k, stem)
        case.files[real] = data
        case.links[main] = os.path.relpath(real, os.path.dirname(main))
    else:
        case.files[main] = data
    if not plain and shape(0.05):
        case.shapes.append("header")
        hdr = "extern struct security_operations %s;\n" % ops_names[0]
        hb = ("#ifndef FZ%03d_H\n#define FZ%03d_H\n%s#endif\n" % (k, k, hdr)).encode()
        case.files[d + "/" + stem + "_ops.h"] = hb.replace(b"\n", b"\r\n") if case.crlf else hb
    return case


def generate(target, seed, ks):
    return [gen_case(target, seed, k) for k in ks]


def write_tree(tree, cases):
    os.makedirs(os.path.join(tree, "include", "linux"), exist_ok=True)
    os.makedirs(os.path.join(tree, "security"), exist_ok=True)
    for case in cases:
        for rel, data in case.files.items():
            p = os.path.join(tree, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(data)
        for rel, link in case.links.items():
            p = os.path.join(tree, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            os.symlink(link, p)


def snapshot(tree):
    """{relative path: (kind, bytes or link)} of every entry under tree."""
    snap = {}
    for d, dirs, files in os.walk(tree):
        for n in dirs + files:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, tree)
            if os.path.islink(p):
                snap[rel] = ("link", os.readlink(p))
            elif os.path.isdir(p):
                snap[rel] = ("dir", None)
            else:
                with open(p, "rb") as f:
                    snap[rel] = ("file", hashlib.sha256(f.read()).hexdigest())
    return snap


# --- the oracle -------------------------------------------------------------------

def lines_of(data):
    """Lines (str, surrogateescape), without their end; a BOM dropped."""
    if data.startswith(BOM):
        data = data[len(BOM):]
    text = data.decode("utf-8", "surrogateescape").replace("\r\n", "\n")
    return text.split("\n")


def legacy_lines(target, data):
    """1-based line numbers with legacy API in code (not comments/literals)."""
    text = "\n".join(lines_of(data))
    code = cscan.code_text(text)
    return [n + 1 for n, line in enumerate(code.split("\n")) if target.legacy_re.search(line)]


def block_at(lines, ln):
    """The initializer { ... }; around line ln (1-based), joined; "" when
    ln is not inside one."""
    if not 0 < ln <= len(lines):
        return ""
    i = ln - 1
    while i >= 0 and not re.search(r"=\s*\{\s*$", lines[i]):
        if re.match(r"\};?\s*$", lines[i]) and i != ln - 1:
            return ""
        i -= 1
    j = ln - 1
    while j < len(lines) and not re.match(r"\};?\s*$", lines[j]):
        j += 1
    return "".join(lines[max(i, 0):j + 1]) if i >= 0 else ""


def _squash(s):
    return re.sub(r"\s+", "", s)


def _source(case, rel):
    """The input bytes of rel (a symlink's target)."""
    if rel in case.links:
        rel = os.path.normpath(os.path.join(os.path.dirname(rel), case.links[rel]))
    return case.files.get(rel)


def check_case(target, case, res):
    """The failures of one case: [(invariant, detail)].

    res: {"rc", "stderr", "tree", "in_before", "in_after" (snapshots of the
    case's input paths), "out": {path: bytes or None}, "items": [dict] of
    the case's files, "out2": {path: bytes or None}, "items2": [dict]}"""
    fails = []

    def fail(inv, msg):
        fails.append((inv, msg))

    rc = res["rc"]
    if rc not in (0, 1) or re.search(r"Traceback \(most recent|Error in Python", res["stderr"]):
        tail = [l for l in res["stderr"].strip().split("\n") if l.strip()][-2:]
        fail("exit", "exit %s%s: %s" % (rc, " with a traceback" if "Traceback" in res["stderr"]
                                         else "", " / ".join(l[:300] for l in tail)))
        return fails
    nbatch = res.get("batch_todos", sum(1 for it in res["items"] if it["kind"] == "todo"))
    if (rc == 1) != (nbatch > 0):
        fail("exit", "exit %d with %d todo(s) in the run" % (rc, nbatch))
    items = res["items"]
    todos = {}
    for it in items:
        if it["kind"] == "todo":
            todos.setdefault(it["file"], set()).add(it["line"])
    ntodo = sum(len(v) for v in todos.values())
    for path in case.checked():
        data = res["out"].get(path)
        if data is None:
            continue
        ipath = res["tree"] + "/" + path
        left = legacy_lines(target, data)
        if left and not ntodo:
            fail("all-clear", "%s: legacy API left on line(s) %s and no todo for the module"
                 % (path, ", ".join(map(str, left[:8]))))
        named = todos.get(ipath, set())
        unnamed = [n for n in left if n not in named]
        if unnamed:
            lines = lines_of(data)
            fail("unnamed", "%s: legacy line(s) no todo names: %s" % (path, "; ".join(
                "%d: %s" % (n, lines[n - 1].strip()[:80]) for n in unnamed[:5])))
    # claims
    for it in items:
        rel = it["file"][len(res["tree"]) + 1:]
        data = res["out"].get(rel)
        if it["kind"] == "file":
            src = _source(case, rel)
            same = data is None or data == src
            if (it["message"] == "changed") == same:
                fail("claim", "%s: file record says %s, the output %s" % (
                    rel, it["message"], "is the input" if same else "differs from the input"))
            continue
        if it["kind"] in ("todo", "parse") or data is None:
            continue
        lines = lines_of(data)
        ln = it["line"]
        # at its line, give or take NEAR: a line in a changed run is mapped
        # to the same offset in the new run (lsmconv.linemap), so an entry
        # after a removed .name line may be named one line late
        near = "".join(lines[max(ln - 1 - NEAR, 0):ln + NEAR]) if ln > 0 else "".join(lines)
        if it["kind"] == "entry":
            m = re.search(r"LSM_HOOK_INIT\(\s*\w+\s*,\s*\w+\s*\)", it["message"])
            if m and _squash(m.group(0)) not in _squash(near + block_at(lines, ln)):
                fail("claim", "%s:%d: the entry %s is not in the output there (line: %s)"
                     % (rel, ln, m.group(0), (lines[ln - 1] if 0 < ln <= len(lines) else "")[:80]))
        elif it["kind"] == "capchain":
            # "cap_X() in FN (registered for H): removed: ..." / "kept: ..."
            m = re.match(r"(\w+)\(\) in (\w+) \(registered for \w+\): (removed|kept)\b",
                         it["message"])
            if m:
                code = cscan.code_text("\n".join(lines))
                body = [code[f.open:f.close] for f in cscan.functions(code) if f.name == m.group(2)]
                calls = bool(body) and re.search(r"\b%s\s*\(" % m.group(1), body[0]) is not None
                if not body or calls != (m.group(3) == "kept"):
                    fail("claim", "%s:%d: %s() %s in %s, but the output %s" % (
                        rel, ln, m.group(1), m.group(3), m.group(2),
                        "has no such function" if not body else
                        "still calls it" if calls else "no longer calls it"))
        elif it["kind"] == "reg":
            m = re.search(r"->\s*(\w+)\s*\(", it["message"])
            if m and not re.search(r"\b%s\s*\(" % m.group(1), near):
                fail("claim", "%s:%d: the change \"%s\" is not in the output there"
                     % (rel, ln, it["message"][:100]))
    # a hook list registered is defined, and its header included (rule 20
    # adds it after <linux/security.h>, which every generated module has)
    mains = [p for p in case.checked() if p.endswith(".c")]
    for p in mains:
        code = cscan.code_text("\n".join(lines_of(res["out"].get(p) or b"")))
        if re.search(r"\bsecurity_hook_list\b", code) and \
                not re.search(r"#\s*include\s*<linux/lsm_hooks\.h>", code):
            fail("claim", "%s: a hook list without #include <linux/lsm_hooks.h>" % p)
        for m in re.finditer(r"\bsecurity_add_hooks\s*\(\s*(\w+)", code):
            # a list left for a human (an ops struct made by a macro): the
            # registration is converted and a todo at its line says the
            # array is the human's to write
            first = code.count("\n", 0, m.start()) + 1
            last = first + code.count("\n", m.start(), max(code.find(";", m.start()), m.start()))
            if todos.get(res["tree"] + "/" + p, set()) & set(range(first, last + 1)):
                continue
            if not re.search(r"\b%s\s*\[\s*\]" % m.group(1), code):
                fail("claim", "%s: security_add_hooks(%s, ...) in the output, no %s[] defined"
                     % (p, m.group(1), m.group(1)))
    # the generator's entries
    out_code = "".join(_squash(cscan.code_text("\n".join(lines_of(res["out"].get(p) or b""))))
                       for p in mains)
    for h, fn in case.entries:
        if _squash("LSM_HOOK_INIT(%s,%s)" % (h, fn)) in out_code:
            continue
        at = set()
        for p in mains:
            for n, line in enumerate(lines_of(res["out"].get(p) or b"")):
                if re.search(r"\.%s\s*=\s*%s\b" % (h, fn), line):
                    at.add((res["tree"] + "/" + p, n + 1))
        if any(it["kind"] == "todo" and (it.get("hook") == h or fn in it["message"] or
                                         (it["file"], it["line"]) in at) for it in items):
            continue
        fail("claim", "the entry .%s = %s is neither LSM_HOOK_INIT(%s, %s) in the output "
             "nor a todo" % (h, fn, h, fn))
    # the input
    changed = [p for p in res["in_before"] if res["in_before"][p] != res["in_after"].get(p)]
    if changed:
        fail("input", "input changed by the --out run: %s" % ", ".join(changed[:3]))
    # a second run
    if "out2" in res:
        for path in case.checked():
            a, b = res["out"].get(path), res["out2"].get(path)
            if a is not None and b is not None and a != b:
                fail("second-run", "%s: a second run changes it" % path)
        for it in res["items2"]:
            # (a cap chain kept is said again on every run: tests/cocci 59)
            kept = it["kind"] == "capchain" and re.search(r"\): kept\b", it["message"])
            if it["kind"] == "file" and it["message"] == "changed" or \
                    it["kind"] not in ("file", "todo", "parse") and not kept:
                fail("second-run", "a second run reports %s %s:%s: %s" % (
                    it["kind"], it["file"].rsplit("/", 1)[-1], it["line"], it["message"][:80]))
                break
    # line endings, BOM, Latin-1 (as each input file has them)
    for path in case.checked():
        data, src = res["out"].get(path), _source(case, path)
        if data is None or src is None:
            continue
        crlf = b"\r\n" in src
        if crlf and re.search(rb"(?<!\r)\n", data):
            fail("bytes", "%s: a CRLF file has LF-only lines in the output" % path)
        if not crlf and b"\r" in data:
            fail("bytes", "%s: an LF file has CR in the output" % path)
        if src.startswith(BOM) != data.startswith(BOM):
            fail("bytes", "%s: the BOM was %s" % (path, "lost" if src.startswith(BOM) else "added"))
        for b in case.latin1:
            if src.count(b) != data.count(b):
                fail("bytes", "%s: the Latin-1 bytes %r are not kept" % (path, b))
    return fails


# --- running the converter ----------------------------------------------------------

def load_items(path):
    out = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    out.append(json.loads(line))
    except (OSError, ValueError):
        pass
    return out


def read_out(out, tree, rel):
    """The output of rel: OUT/rel when the run wrote it, else the input as
    it is (what a user ends up with)."""
    for base in (out, tree):
        p = os.path.join(base, rel)
        if os.path.isfile(p):
            with open(p, "rb") as f:
                return f.read()
    return None


def convert(args, tree, out, items):
    cmd = [args.convert, "tree", tree, "--target", args.target, "--out", out,
           "--items", items, "--report", os.devnull, "--force"]
    if args.jobs:
        cmd += ["--jobs", str(args.jobs)]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return p.returncode, p.stderr.decode("utf-8", "replace")


def run_batch(args, target, cases, work, tag):
    """Convert cases in one tree, then their output again; {k: res}."""
    base = os.path.join(work, tag)
    tree, out = os.path.join(base, "in tree"), os.path.join(base, "out")
    write_tree(tree, cases)
    before = snapshot(tree)
    rc, err = convert(args, tree, out, os.path.join(base, "items.jsonl"))
    after = snapshot(tree)
    items = load_items(os.path.join(base, "items.jsonl"))
    res = {}
    ok = rc in (0, 1) and "Traceback" not in err
    if ok:
        # the second run: the input tree with the output over it
        tree2, out2 = os.path.join(base, "second"), os.path.join(base, "out2")
        shutil.copytree(tree, tree2, symlinks=True)
        for d, _dirs, files in os.walk(out):
            for n in files:
                if n.startswith(".lsmconv"):
                    continue
                p = os.path.join(d, n)
                dst = os.path.join(tree2, os.path.relpath(p, out))
                if os.path.lexists(dst):
                    os.unlink(dst)
                shutil.copyfile(p, dst)
        rc2, err2 = convert(args, tree2, out2, os.path.join(base, "items2.jsonl"))
        items2 = load_items(os.path.join(base, "items2.jsonl"))
    for case in cases:
        r = {"rc": rc, "stderr": err, "tree": tree,
             "in_before": {p: before.get(p) for p in before if _owned(case, p)},
             "in_after": {p: after.get(p) for p in after if _owned(case, p)}}
        mine = set(case.checked())
        r["items"] = [i for i in items if i["file"][len(tree) + 1:] in mine]
        r["out"] = {p: read_out(out, tree, p) for p in case.paths()}
        if ok:
            r["out2"] = {p: read_out(out2, tree2, p) for p in case.paths()}
            r["items2"] = [i for i in items2 if i["file"][len(tree2) + 1:] in mine]
            if rc2 not in (0, 1) or "Traceback" in err2:
                r["rc"], r["stderr"] = rc2, "second run: " + err2
        r["batch_todos"] = sum(1 for i in items if i["kind"] == "todo")
        res[case.k] = r
    return res


def _owned(case, rel):
    return any(rel == p or rel.startswith(p.rsplit("/", 1)[0] + "/") or
               p.startswith(rel + "/") for p in case.paths())


def run_cases(args, target, cases, work, tag="b", deadline=None):
    """run_batch; while a batch does not exit 0 or 1, the cases its message
    names are run alone and the others again, else it is split in halves;
    past the deadline a failed batch is every case's failure."""
    res = run_batch(args, target, cases, work, tag)
    first = res[cases[0].k]
    if first["rc"] in (0, 1) and "Traceback" not in first["stderr"] or len(cases) == 1:
        return res
    if deadline and time.time() > deadline:
        for r in res.values():
            r["stderr"] += ("\n(a run of %d cases; not narrowed down within the budget: "
                            "rerun the case with --only)" % len(cases))
        return res
    err = os.fsencode(first["stderr"])
    named = [c for c in cases if any(("/" + p).encode("utf-8", "surrogateescape")[:60] in err
                                     for p in c.paths())]
    if named and len(named) < len(cases):
        out = {}
        for c in named:
            out.update(run_batch(args, target, [c], work, tag + "n%d" % c.k))
        out.update(run_cases(args, target, [c for c in cases if c not in named], work, tag + "r",
                             deadline))
        return out
    h = len(cases) // 2
    out = run_cases(args, target, cases[:h], work, tag + "0", deadline)
    out.update(run_cases(args, target, cases[h:], work, tag + "1", deadline))
    return out


def _same_hooks(a, b):
    try:
        with open(os.path.join(a, HOOK_DEFS), "rb") as f, open(os.path.join(b, HOOK_DEFS), "rb") as g:
            return f.read() == g.read()
    except OSError:
        return False


def rerun_cmd(args, case):
    """The command that reruns case alone (without --target when the
    target's hooks are the default tree's: a suite's fixture is gone by
    the time one reads it)."""
    tgt = "" if _same_hooks(args.target, _default_target()) else " --target '%s'" % args.target
    conv = "" if os.path.realpath(args.convert) == os.path.join(ROOT, "convert.sh") \
        else " --convert '%s'" % args.convert
    return ("LSMCONV_FUZZ_SEED=%d python3 %s run%s%s --only %d --keep /tmp/fuzz-case-%d"
            % (case.seed, os.path.relpath(__file__, ROOT), tgt, conv, case.k, case.k))


def cmd_run(args):
    target = Target(args.target)
    ks = args.only if args.only else list(range(args.cases))
    cases = generate(target, args.seed, ks)
    if args.work:
        os.makedirs(args.work, exist_ok=True)
    work = args.keep or tempfile.mkdtemp(prefix="lsmconv-fuzz.", dir=args.work)
    if args.keep:
        os.makedirs(work, exist_ok=True)
    t0 = time.time()
    try:
        res = run_cases(args, target, cases, work,
                        deadline=t0 + args.budget if args.budget else None)
        results = []
        for case in cases:
            fails = check_case(target, case, res[case.k])
            r = res[case.k]
            ran = r["rc"] in (0, 1) and not re.search(r"Traceback \(most recent|Error in Python",
                                                        r["stderr"])
            results.append((case, fails, not ran))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    took = time.time() - t0
    nfail = 0
    failures = []
    for case, fails, unchecked in results:
        if not fails:
            continue
        nfail += 1
        known = [SHAPE_DEFECTS[s] for s in sorted(set(case.shapes), key=case.shapes.index)
                 if s in SHAPE_DEFECTS]
        print("FAIL %s" % case.describe())
        for inv, msg in fails:
            print("  %s: %s" % (inv, _disp(msg)))
            failures.append({"case": case.k, "case_text": case.describe(), "invariant": inv,
                             "message": _disp(msg), "known": known,
                             "files": _disp(", ".join(case.paths())), "unchecked": unchecked,
                             "rerun": _disp(rerun_cmd(args, case))})
        print("  files: %s" % _disp(", ".join(case.paths())))
        if known:
            print("  its shapes once caught: %s" % "; ".join(known))
        print("  rerun: %s" % _disp(rerun_cmd(args, case)))
    print("fuzz: seed %d, %d case(s), %d failed, %.1f s%s" % (
        args.seed, len(cases), nfail, took, " (kept in %s)" % work if args.keep else ""))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"seed": args.seed, "cases": len(cases), "failed": nfail, "seconds": took,
                       "failures": failures}, f)
    return 1 if nfail else 0


def _disp(s):
    """s printable whatever the locale: non-UTF-8 bytes as U+FFFD."""
    return s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def cmd_show(args):
    """The failures of one invariant in a run's --json, as TAP diagnostics;
    exit 1 when there is one."""
    try:
        with open(args.json, encoding="utf-8") as f:
            run = json.load(f)
    except (OSError, ValueError) as e:
        print("# fuzz.py show: cannot read %s: %s" % (args.json, e))
        return 2
    mine = [f for f in run["failures"] if f["invariant"] == args.invariant]
    # a case whose run did not exit 0 or 1 was checked for nothing else
    unchecked = sorted({f["case"] for f in run["failures"] if f.get("unchecked")})
    if args.invariant != "exit" and unchecked:
        print("# %d case(s) not checked for this: their run did not exit 0 or 1 (see the exit "
              "case): %s" % (len(unchecked), " ".join(map(str, unchecked[:40]))))
    shown = set()
    for f in mine:
        if f["case"] not in shown:
            shown.add(f["case"])
            if len(shown) > args.max:
                continue
            print("# %s" % f["case_text"])
            print("#   files: %s" % f.get("files", "?"))
            if f["known"]:
                print("#   its shapes once caught: %s" % "; ".join(f["known"]))
            print("#   rerun: %s" % f["rerun"])
        if len(shown) <= args.max:
            print("#   %s: %s" % (f["invariant"], f["message"][:300]))
    if len(shown) > args.max:
        print("# ... and %d more case(s)" % (len(shown) - args.max))
    return 1 if mine or (args.invariant != "exit" and unchecked) else 0


def cmd_gen(args):
    target = Target(args.target)
    ks = args.only if args.only else list(range(args.cases))
    cases = generate(target, args.seed, ks)
    write_tree(args.out, cases)
    for case in cases:
        print("%s: %s" % (case.describe(), _disp(", ".join(case.paths()))))
    return 0


# --- the self-test: each invariant catches a breakage ------------------------------

def toy_convert(target, data):
    """A conversion of a plain generated module (gen_case(plain=True)) and
    its items, as (bytes, [(line, kind, hook, message)])."""
    lines = lines_of(data)
    out, its, lsm, ops = [], [], None, None
    for line in lines:
        m = re.match(r'\s*\.name = "(.*)",$', line)
        if m:
            lsm = m.group(1)
    in_ops = False
    for line in lines:
        m = re.match(r"(static )?struct security_operations (\w+) = \{$", line)
        if m:
            ops, in_ops = m.group(2), True
            out.append("static struct security_hook_list %s_hooks[] __lsm_ro_after_init = {" % lsm)
            continue
        if line == "};":
            in_ops = False
        if in_ops and re.match(r'\s*\.name = ', line):
            continue
        m = re.match(r"\t\.(\w+) = (\w+),$", line) if in_ops else None
        if m:
            out.append("\tLSM_HOOK_INIT(%s, %s)," % m.groups())
            its.append((len(out), "entry", m.group(1), "%s: LSM_HOOK_INIT(%s, %s)" % (
                ops, m.group(1), m.group(2))))
            continue
        m = re.match(r"\tif \(register_security\(&(\w+)\)\)$", line)
        if m:
            out.append('\tsecurity_add_hooks(%s_hooks, ARRAY_SIZE(%s_hooks), "%s");' % (lsm, lsm, lsm))
            its.append((len(out), "reg", None, "register_security(&%s) -> security_add_hooks(...)"
                        % m.group(1)))
            continue
        if re.match(r"\t\tpanic\(", line):
            continue
        if line == "#include <linux/security.h>" and "#include <linux/lsm_hooks.h>" not in lines:
            out += [line, "#include <linux/lsm_hooks.h>"]
            continue
        m = re.match(r"security_initcall\((\w+)\);$", line)
        if m:
            out += ["DEFINE_LSM(%s) = {" % lsm, '\t.name = "%s",' % lsm, "\t.init = %s," % m.group(1),
                    "};"]
            its.append((len(out) - 3, "reg", None, "security_initcall(%s) -> DEFINE_LSM(%s)"
                        % (m.group(1), lsm)))
            continue
        out.append(line)
    return "\n".join(out).encode("utf-8", "surrogateescape"), its


def selftest():
    """Exit 0 when the unmutated toy passes every invariant and each
    mutation fails the one it breaks."""
    target = Target(os.environ.get("LSMCONV_FUZZ_TARGET") or _default_target())
    tree = "/fuzz/in tree"
    case = gen_case(target, 1, 0, plain=True)
    case.crlf = True
    case.latin1 = [b"caf\xe9"]
    (path, data), = case.files.items()
    data = data.replace(b" * fuzz case", b" * caf\xe9 fuzz case").replace(b"\n", b"\r\n")
    case.files[path] = data
    out, its = toy_convert(target, data)
    out = out.replace(b"\n", b"\r\n")

    def item(line, kind, hook, msg, f=path):
        return {"file": tree + "/" + f, "line": line, "kind": kind, "hook": hook, "message": msg,
                "rule": "toy", "check": None, "action": None, "state": None}

    def base():
        items = [item(0, "file", None, "changed")] + [item(*i) for i in its]
        items2 = [item(0, "file", None, "unchanged")]
        snap = {path: ("file", "x")}
        return {"rc": 0, "stderr": "", "tree": tree, "in_before": dict(snap), "in_after": dict(snap),
                "out": {path: out}, "items": items, "out2": {path: out}, "items2": items2}

    def drop_entry_line(r):
        lines = r["out"][path].split(b"\r\n")
        i = next(n for n, l in enumerate(lines) if b"LSM_HOOK_INIT" in l)
        r["out"][path] = r["out2"][path] = b"\r\n".join(lines[:i] + lines[i + 1:])

    def wrong_item_line(r):
        e = next(i for i in r["items"] if i["kind"] == "entry")
        e["line"] = 1

    def legacy_left_with_todo_elsewhere(r):
        r["out"][path] = r["out2"][path] = r["out"][path].replace(
            b"\tprintk(", b"\treset_security_ops();\r\n\tprintk(")
        r["items"].append(item(1, "todo", None, "a todo on another line"))
        r["rc"] = 1

    def exit0_with_legacy(r):
        r["out"][path] = r["out2"][path] = r["out"][path].replace(
            b"DEFINE_LSM(", b"security_initcall(x);\r\nDEFINE_LSM(")

    def claim_not_done(r):
        r["out"][path] = r["out2"][path] = r["out"][path].replace(b"security_add_hooks(", b"xx(")

    def list_renamed(r):
        r["out"][path] = r["out2"][path] = r["out"][path].replace(b"_hooks[]", b"_list[]")

    def no_include(r):
        r["out"][path] = r["out2"][path] = r["out"][path].replace(
            b"#include <linux/lsm_hooks.h>\r\n", b"")

    def capchain_not_removed(r):
        r["out"][path] = r["out2"][path] = r["out"][path] + (
            b"static int toy_capable(int cap)\r\n{\r\n\tint rc = cap_capable(cap);\r\n"
            b"\treturn rc;\r\n}\r\n")
        r["items"].append(item(len(r["out"][path].split(b"\r\n")) - 3, "capchain", "capable",
                               "cap_capable() in toy_capable (registered for capable): removed: x"))

    def file_record_lies(r):
        r["items"][0]["message"] = "unchanged"

    mutations = [
        ("none", None, lambda r: None),
        ("exit", "the run exits 2", lambda r: r.update(rc=2, stderr="convert.sh: no")),
        ("exit", "a traceback with exit 1", lambda r: r.update(
            rc=1, stderr="Traceback (most recent call last):\n  x\nKeyError: 1")),
        ("exit", "exit 1 without a todo", lambda r: r.update(rc=1)),
        ("exit", "exit 0 with a todo", lambda r: r["items"].append(item(1, "todo", None, "t"))),
        ("all-clear", "exit 0 with security_initcall left", exit0_with_legacy),
        ("unnamed", "reset_security_ops() left, the todo on another line",
         legacy_left_with_todo_elsewhere),
        ("claim", "a converted entry's line dropped", drop_entry_line),
        ("claim", "an entry item with a wrong line", wrong_item_line),
        ("claim", "a reg item whose call is not in the output", claim_not_done),
        ("claim", "a changed file recorded as unchanged", file_record_lies),
        ("claim", "a cap chain claimed removed that is still called", capchain_not_removed),
        ("claim", "a hook list without #include <linux/lsm_hooks.h>", no_include),
        ("claim", "security_add_hooks() of a hook list the output does not define", list_renamed),
        ("input", "the input touched by an --out run", lambda r: r["in_after"].update(
            {path: ("file", "y")})),
        ("second-run", "a second run changes a byte", lambda r: r["out2"].update(
            {path: r["out"][path] + b"\r\n"})),
        ("second-run", "a second run reports an entry", lambda r: r["items2"].append(
            item(3, "entry", "x", "o: LSM_HOOK_INIT(x, y)"))),
        ("bytes", "CRLF turned into LF", lambda r: r["out"].update(
            {path: r["out"][path].replace(b"\r\n", b"\n")})),
        ("bytes", "Latin-1 turned into U+FFFD", lambda r: r["out"].update(
            {path: r["out"][path].replace(b"caf\xe9", b"caf\xef\xbf\xbd")})),
        ("bytes", "a BOM added", lambda r: r["out"].update({path: BOM + r["out"][path]})),
    ]
    bad = 0
    for want, what, mutate in mutations:
        r = base()
        mutate(r)
        got = sorted({inv for inv, _ in check_case(target, case, r)})
        if want == "none":
            ok = not got
            what = "the toy conversion passes"
        else:
            ok = want in got
        print("%s - %s: %s (got: %s)" % ("ok" if ok else "NOT OK", want, what, ", ".join(got) or "none"))
        if not ok:
            bad += 1
            for inv, msg in check_case(target, case, r):
                print("    %s: %s" % (inv, msg))
    bad += selftest_runner(target)
    # the generator: a case is the same whatever else is generated
    a = gen_case(target, 7, 5)
    b = generate(target, 7, range(9))[5]
    same = a.files == b.files and a.links == b.links
    print("%s - gen: case 5 of seed 7 alone is case 5 of 9" % ("ok" if same else "NOT OK"))
    bad += not same
    print("selftest: %d mutation(s) and %d runner mutation(s), %d not caught"
          % (len(mutations) - 1, len(RUNNER_MUTATIONS) - 1, bad))
    return 1 if bad else 0


def fake_convert(argv):
    """convert.sh tree DIR --target T --out OUT --items I ... with
    toy_convert() on every security/**/*.c of DIR, and the breakage
    LSMCONV_FUZZ_FAKE names (RUNNER_MUTATIONS): the runner's own test."""
    tree, target, out, items = argv[1], argv[argv.index("--target") + 1], \
        argv[argv.index("--out") + 1], argv[argv.index("--items") + 1]
    fake = os.environ.get("LSMCONV_FUZZ_FAKE", "")
    second = os.path.basename(tree) == "second"
    t = Target(target)
    recs, its = [], []
    for d, _dirs, files in sorted(os.walk(os.path.join(tree, "security"))):
        for n in sorted(files):
            p = os.path.join(d, n)
            rel = os.path.relpath(p, tree)
            with open(p, "rb") as f:
                data = f.read()
            if fake == "exit2" and "fz002" in rel:
                sys.stderr.write("convert.sh: the rules reported 1 conversion(s) that are not in "
                                 "the output (first: %s/%s:3)\n" % (tree, rel))
                return 2
            conv, found = toy_convert(t, data)
            if fake == "drop" and "fz001" in rel:
                conv = re.sub(rb"\tLSM_HOOK_INIT\(.*\n", b"", conv, count=1)
            if fake == "second" and second and "fz003" in rel:
                conv += b"/* again */\n"
            if fake == "touch" and "fz000" in rel:
                with open(p, "ab") as f:
                    f.write(b"\n")
            name = tree + "/" + rel
            recs.append({"file": name, "line": 0, "kind": "file", "hook": None,
                         "message": "changed" if conv != data else "unchanged", "rule": "driver"})
            its += [{"file": name, "line": ln, "kind": k, "hook": h, "message": m, "rule": "toy"}
                    for ln, k, h, m in found]
            if conv != data:
                dst = os.path.join(out, rel)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                with open(dst, "wb") as f:
                    f.write(conv)
    with open(items, "w", encoding="utf-8") as f:
        for it in recs + its:
            f.write(json.dumps(it) + "\n")
    return 0


# (LSMCONV_FUZZ_FAKE, the invariant that must fail, the only case that may)
RUNNER_MUTATIONS = (
    ("", None, None),
    ("drop", "claim", 1),
    ("exit2", "exit", 2),
    ("second", "second-run", 3),
    ("touch", "input", 0),
)


def selftest_runner(target):
    """run_cases() through a fake convert.sh: the toy passes, each breakage
    fails its invariant in its case only; the number not caught."""
    work = tempfile.mkdtemp(prefix="lsmconv-fuzz-selftest.")
    bad = 0
    try:
        fake = os.path.join(work, "convert.sh")
        with open(fake, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\nexec %s %s --fake-convert \"$@\"\n" % (
                sys.executable, os.path.abspath(__file__)))
        os.chmod(fake, 0o755)
        cases = [gen_case(target, 3, k, plain=True) for k in range(5)]
        args = argparse.Namespace(convert=fake, target=target.tree, jobs=None)
        for mode, want, k in RUNNER_MUTATIONS:
            os.environ["LSMCONV_FUZZ_FAKE"] = mode
            res = run_cases(args, target, cases, os.path.join(work, mode or "none"))
            got = {c.k: sorted({inv for inv, _ in check_case(target, c, res[c.k])}) for c in cases}
            failed = {c: invs for c, invs in got.items() if invs}
            ok = not failed if want is None else (set(failed) == {k} and want in failed[k])
            print("%s - runner: fake convert.sh %s (failed: %s)" % (
                "ok" if ok else "NOT OK", mode or "unbroken", failed or "none"))
            bad += not ok
    finally:
        os.environ.pop("LSMCONV_FUZZ_FAKE", None)
        shutil.rmtree(work, ignore_errors=True)
    return bad


def _default_target():
    sys.path.insert(0, os.path.join(ROOT, "cocci"))
    from lsmconv import paths
    return paths.default_tree()


def _ks(text):
    try:
        return [int(x) for x in text.split(",") if x != ""]
    except ValueError:
        raise argparse.ArgumentTypeError("not a list of case numbers: %s" % text)


def _env_int(name, default):
    v = os.environ.get(name, "")
    try:
        return int(v) if v else default
    except ValueError:
        sys.stderr.write("fuzz.py: %s is not a number: %s\n" % (name, v))
        sys.exit(2)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--selftest":
        return selftest()
    if argv and argv[0] == "--fake-convert":
        return fake_convert(argv[1:])
    ap = argparse.ArgumentParser(prog="fuzz.py", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("show")
    p.add_argument("--json", required=True)
    p.add_argument("--max", type=int, default=5)
    p.add_argument("invariant", choices=INVARIANTS)
    for name in ("run", "gen"):
        p = sub.add_parser(name)
        p.add_argument("--target", default=None)
        p.add_argument("--seed", type=int, default=_env_int("LSMCONV_FUZZ_SEED", DEFAULT_SEED))
        p.add_argument("--cases", type=int, default=_env_int("LSMCONV_FUZZ_CASES", DEFAULT_CASES))
        p.add_argument("--only", type=_ks, default=None)
        if name == "run":
            p.add_argument("--convert", default=os.environ.get("CONVERT") or
                           os.path.join(ROOT, "convert.sh"))
            p.add_argument("--work", default=None)
            p.add_argument("--keep", default=None)
            p.add_argument("--json", default=None)
            p.add_argument("--jobs", type=int, default=None)
            p.add_argument("--budget", type=float,
                           default=_env_int("LSMCONV_FUZZ_BUDGET", 0) or None)
        else:
            p.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    if args.cmd == "show":
        return cmd_show(args)
    args.target = args.target or _default_target()
    if not os.path.isfile(os.path.join(args.target, HOOK_DEFS)):
        sys.stderr.write("fuzz.py: no include/linux/lsm_hook_defs.h in %s\n" % args.target)
        return 2
    return cmd_run(args) if args.cmd == "run" else cmd_gen(args)


if __name__ == "__main__":
    sys.exit(main())
