# SPDX-License-Identifier: GPL-2.0
"""Port a legacy security module to the target tree (convert.sh port).

    python3 -m lsmconv.port DIR --target TREE --name NAME [--out DIR] [--report FILE]
                           [--items FILE]

Runs `convert.sh file` over DIR's .c/.h files, then, on the converted text:
  cap      LSM_HOOK_INIT(hook, cap_x): dropped when the target's commoncap
           registers cap_x itself (it would run twice) or when the target has
           no cap_x at all (a legacy default stub); kept when the module
           defines cap_x
  sig      every LSM_HOOK_INIT(hook, fn): fn's return and parameter types
           against the target hook's; renamed/removed hooks (renames.tsv)
           named with their replacement and version, renamed automatically
           when the signature then matches
  name     the LSM's name is --name everywhere the target uses it
           (DEFINE_LSM, security_add_hooks(), struct lsm_id: lsmconv.lsmname)
  reg      a hook list nothing registers gets an init + DEFINE_LSM;
           module_init() registering hooks becomes DEFINE_LSM; the
           registration argument in the target's form (lsmconv.lsmid:
           a struct lsm_id where the target takes one)
  blob     a module's own blob allocation: the simple alloc/free hooks and
           a copying alloc hook become the lsm_blob_sizes form with
           accessors (lsmconv.blobs); every other direct use of
           cred->security, inode->i_security, ... is named
  include  an #include of a header the target does not have (lsmconv.headers:
           read from the tree; headers.tsv says when it went and what
           replaces it), and the header of the target that defines a struct
           a hook function dereferences through its parameter, when nothing
           the file includes defines it there
  config   the module's own CONFIG_ options (no Kconfig of the target
           defines them: lsmconv.modconfig), a todo each; make port turns
           those used as conditions on with the module
  sweep    cocci/port/legacy-sweep.cocci plus a text scan (macro bodies,
           #include of capability.c, code spatch cannot parse, anything
           left inside a hook list that is not an entry)
Every finding is an item (lsmconv.items: a todo, or a change the port
made) placed at its file:line of the output; --items FILE writes them as
items.jsonl, the report (lsmconv.report) is rendered from them.  Exit status
(lsmconv.exits): 0 only when no todo is left (1 otherwise; 2 usage/input
error, nothing written; 3 failure after writing started).

LSMCONV_PORT_MUTATE=sweep|sig|cap|blob|lsmid|name switches one check off (blob:
the rewrite only, every use is still named; lsmid: the registration form); only tests/port/run.sh sets it, to
show that named cases then fail.
LSMCONV_PORT_CACHE=DIR keeps convert.sh results by the hash of the input,
lsmconv's rules and the target (its path and every file of it the conversion
read, as recorded by lsmconv.source: run_convert) (tests, make port).
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

from lsmconv import blobs, capability, claims, exits, form, fsio, hooks, lsmid, lsmname, paths, report, \
    source
from lsmconv import items as I
from lsmconv import headers, modconfig
from lsmconv import cscan
from lsmconv.cscan import code_text as strip_comments, find_function, norm_type, param_type

HERE = os.path.dirname(os.path.abspath(__file__))
COCCI = os.path.dirname(HERE)
ROOT = os.path.dirname(COCCI)
SWEEP = os.path.join(COCCI, "port", "legacy-sweep.cocci")
RENAMES = os.path.join(HERE, "renames.tsv")
MARKER = ".lsmconv-port"
MARK = "lsmconv port:"

LEGACY_FUNCS = ("register_security", "unregister_security", "mod_reg_security",
                "mod_unreg_security", "reset_security_ops", "security_fixup_ops")
LEGACY_TOKENS = ("security_operations", "security_ops", "secondary_ops") + LEGACY_FUNCS


Fail, Interrupted = exits.Fail, exits.Interrupted


# An output line with its items, and an item of a check (lsmconv.items).
Line = I.Line
Item = I.port_item


def mutated(check):
    return os.environ.get("LSMCONV_PORT_MUTATE", "") == check


# ---------------------------------------------------------------- tables

def load_renames(path=RENAMES):
    return headers.load_versioned(path, "old", "removed")


# ---------------------------------------------------------------- epoch

def recognise(texts):
    """The API epoch the input is written for (recognition only)."""
    code = "\n".join(strip_comments(t) for t in texts)
    if re.search(r"\bstruct\s+security_operations\b|\bregister_security\s*\(", code):
        return "legacy (struct security_operations, before 4.2)"
    adds = re.findall(r"security_add_hooks\s*\(([^;]*)\)\s*;", code)
    if re.search(r"\bDEFINE_(EARLY_)?LSM\s*\(", code):
        if any(len(hooks.split_args(a)) == 3 and hooks.split_args(a)[2].strip().startswith("&")
               for a in adds):
            return "6.8 form (DEFINE_LSM, security_add_hooks with a struct lsm_id)"
        if re.search(r"\.blobs\s*=", code) or not re.search(
                r"(->|\.)\s*(security|i_security|f_security|sk_security|s_security)\b", code):
            return "6.1 form (DEFINE_LSM, blobs through lsm_blob_sizes)"
        return "5.1 (DEFINE_LSM, module allocates its own blobs)"
    if adds:
        if any(len(hooks.split_args(a)) == 2 for a in adds):
            return "4.2 (two-argument security_add_hooks, security_initcall)"
        return "4.11 (security_add_hooks with a name string)"
    return "none recognised (no LSM API found)"


# ---------------------------------------------------------------- conversion

def _cache_key(target, files):
    """The part of the cache key known before converting: the target's
    path, the inputs, every rule and every module they import, convert.sh."""
    h = hashlib.sha256(os.path.abspath(target).encode())
    for f in sorted(files):
        h.update(os.path.basename(f).encode() + b"\0")
        with open(f, "rb") as fh:
            h.update(fh.read())
    for d, dirs, names in sorted(os.walk(COCCI)):
        dirs.sort()
        for name in sorted(names):
            if name.endswith((".cocci", ".py", ".tsv")):
                with open(os.path.join(d, name), "rb") as fh:
                    h.update(name.encode() + b"\0" + fh.read())
    with open(os.path.join(ROOT, "convert.sh"), "rb") as fh:
        h.update(fh.read())
    return h.hexdigest()


def _reads_key(target, rels):
    """The digest of the target files a conversion read, as they are now."""
    h = hashlib.sha256()
    for rel in rels:
        h.update(rel.encode("utf-8", "surrogateescape") + b"\0" +
                 source.digest(os.path.join(target, rel)).encode() + b"\n")
    return h.hexdigest()


def run_convert(target, files, outdir, items):
    """convert.sh file FILES --out OUTDIR --items ITEMS (the stable CLI).

    With LSMCONV_PORT_CACHE=DIR the result is kept and reused, keyed by
    the inputs, the rules and the target files the conversion read: the
    rules' helpers record every file they read (lsmconv.source,
    LSMCONV_READS), DIR/KEY.reads lists the target files of the last
    conversion of KEY, and DIR/KEY-READS holds the result for their present
    contents (a manifest, as ccache's): an edit of any file the rules read
    (security/security.c, ...) makes a new conversion."""
    cache = os.environ.get("LSMCONV_PORT_CACHE", "")
    key = None
    if cache:
        key = os.path.join(cache, _cache_key(target, files))
        try:
            with open(key + ".reads", encoding="utf-8", errors="surrogateescape") as f:
                rels = [l for l in f.read().split("\n") if l]
        except OSError:
            rels = []
        entry = key + "-" + _reads_key(target, rels)
        if rels and os.path.isdir(entry):
            shutil.copytree(os.path.join(entry, "out"), outdir, dirs_exist_ok=True)
            shutil.copy(os.path.join(entry, "items.jsonl"), items)
            sys.stderr.write("port: convert.sh file's result reused (inputs, rules and the %d "
                             "target files it read unchanged)\n" % len(rels))
            return
    sys.stderr.write("port: converting %d file(s) with convert.sh file\n" % len(files))
    log = os.path.join(os.path.dirname(os.path.abspath(outdir)), "reads.log")
    if os.path.exists(log):
        os.remove(log)
    errf = os.path.join(os.path.dirname(os.path.abspath(outdir)), "convert.err")
    with open(errf, "wb") as err:   # work: lsmconv's own temporary directory
        p = subprocess.Popen([os.path.join(ROOT, "convert.sh"), "file"] + files +
                             ["--target", target, "--out", outdir, "--items", items,
                              "--allow-partial"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=err,
                             env=dict(os.environ, **{source.READS: log}))
        exits.Signals.child = p
        try:
            rc = _wait(p)
        finally:
            exits.Signals.child = None
    with open(errf, encoding="utf-8", errors="replace") as f:
        errtext = f.read()
    if rc != 0:
        raise Fail("convert.sh file failed (status %d):\n%s" % (
            rc, "\n".join(errtext.splitlines()[-15:])))
    rels = source.reads_of(log, target)
    if key and not rels:
        sys.stderr.write("port: not cached: the conversion recorded no file of the target "
                         "it read (%s)\n" % source.READS)
    elif key:
        entry = key + "-" + _reads_key(target, rels)
        tmp = "%s.tmp%d" % (entry, os.getpid())
        shutil.copytree(outdir, os.path.join(tmp, "out"))
        shutil.copy(items, os.path.join(tmp, "items.jsonl"))
        try:
            os.rename(tmp, entry)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
        with open(key + ".reads.tmp%d" % os.getpid(), "w", encoding="utf-8",  # work: the cache
                  errors="surrogateescape") as f:
            f.write("".join(r + "\n" for r in rels))
        os.replace(key + ".reads.tmp%d" % os.getpid(), key + ".reads")


def _wait(p):
    """Wait for the child; on SIGINT/SIGTERM (passed on to it by exits.on_signal)
    wait until it has cleaned up, then raise."""
    try:
        return p.wait()
    except Interrupted:
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        raise


def convert_todos(items):
    """[(basename, line, message)] of the converter's todo items, but the
    driver's legacy-left ones (lsmconv.claims.left_items): the port's sweep
    names those lines itself, with more."""
    return [(os.path.basename(i.file), int(i.line), i.message) for i in I.todos(I.load(items))
            if i.rule != claims.LEFT_RULE]


# ---------------------------------------------------------------- the port

class Port:
    def __init__(self, target, name, files):
        self.target = target
        self.name = name
        self.ident = re.sub(r"\W", "_", name)
        self.hooks = hooks.load(target)
        self.cap = capability.hooks(target)
        self.renames = load_renames()
        self.files = files          # {rel: [Line]}
        self.notes = []

    # -- helpers
    def text(self, rel):
        return "\n".join(l.text for l in self.files[rel])

    def code(self):
        return {rel: strip_comments(self.text(rel)) for rel in self.files}

    def lookup(self, fn):
        """(rel, ret, params, has_body) of fn's definition, else a prototype."""
        best = None
        for rel, code in self.code().items():
            r = find_function(code, fn)
            if r and r[2]:
                return (rel,) + r
            if r and best is None:
                best = (rel,) + r
        return best

    def defines(self, fn):
        r = self.lookup(fn)
        return bool(r and r[3])

    def add(self, rel, idx, kind, check, detail):
        self.files[rel][idx].items.append(Item(kind, check, detail))

    def hook_proto(self, hook):
        h = self.hooks[hook]
        return "%s %s(%s)" % (h.ret, hook, h.args)

    def fn_proto(self, fn, r):
        return "%s %s(%s)" % (r[1].replace("*", " *").replace("  ", " "), fn,
                              ", ".join(re.sub(r"\s+", " ", p) for p in r[2]) or "void")

    def sig_matches(self, hook, r):
        h = self.hooks[hook]
        if norm_type(h.ret) != r[1]:
            return False
        want = [norm_type(t) for t, _ in h.params]
        have = [param_type(p) for p in r[2]]
        return want == have

    # -- hook lists
    def arrays(self):
        """[(rel, name, first, last)] line index ranges of hook-list arrays."""
        out = []
        for rel, lines in self.files.items():
            i = 0
            while i < len(lines):
                m = re.search(r"struct\s+security_hook_list\s+(\w+)\s*\[\s*\][^;]*=\s*\{",
                              lines[i].text)
                if m:
                    j = i + 1
                    while j < len(lines) and not re.match(r"\s*\}\s*;", lines[j].text):
                        j += 1
                    out.append((rel, m.group(1), i, j))
                    i = j
                i += 1
        return out

    def entries(self):
        """Every entry line of every hook list: (rel, array, idx, kind, a, b)
        kind 'init' (LSM_HOOK_INIT(a, b)), 'field' (.a = b), 'other'."""
        out = []
        for rel, arr, first, last in self.arrays():
            lines = self.files[rel]
            depth = 0
            for idx in range(first + 1, last):
                t = strip_comments(lines[idx].text)
                s = t.strip()
                if depth > 0:
                    depth += s.count("(") - s.count(")")
                    continue
                m = re.match(r'#\s*include\s*["<]([^">]+)', lines[idx].text.strip())
                if m:
                    out.append((rel, arr, idx, "include", m.group(1), ""))
                    continue
                if not s or s.startswith("#"):
                    continue
                m = re.match(r"LSM_HOOK_INIT\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)", s)
                if m:
                    out.append((rel, arr, idx, "init", m.group(1), m.group(2)))
                    continue
                if s.startswith("LSM_HOOK_INIT"):
                    j = idx
                    joined = s
                    while joined.count("(") > joined.count(")") and j + 1 < last:
                        j += 1
                        joined += " " + strip_comments(lines[j].text).strip()
                    m = re.match(r"LSM_HOOK_INIT\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)", joined)
                    if m:
                        out.append((rel, arr, idx, "init", m.group(1), m.group(2)))
                        depth = s.count("(") - s.count(")")
                        continue
                m = re.match(r"\.(\w+)\s*=\s*(\w+)\s*,?$", s)
                if m:
                    out.append((rel, arr, idx, "field", m.group(1), m.group(2)))
                    continue
                out.append((rel, arr, idx, "other", s, ""))
        return out

    def macros(self):
        """{NAME: [(identifier, rel, line)]} of the module's object-like
        macros whose body is one identifier (`#define NAME ident`), every
        definition (#ifdef branches give several)."""
        out = {}
        for rel, code in self.code().items():
            for i, t in enumerate(code.split("\n")):
                m = re.match(r"\s*#\s*define\s+(\w+)\s+(\w+)\s*$", t)
                if m:
                    out.setdefault(m.group(1), []).append((m.group(2), rel, i + 1))
        return out

    def expand(self, name, seen=()):
        """What the module's macro name expands to: the first of its
        definitions that is a hook of the target, else the first that is in
        the renames table, else None (macros of macros followed)."""
        defs = self.macros().get(name, [])
        cands = []
        for ident, _, _ in defs:
            if ident in self.macros() and ident not in seen:
                ident = self.expand(ident, seen + (name,)) or ident
            cands.append(ident)
        for pick in ([c for c in cands if c in self.hooks], [c for c in cands if c in self.renames]):
            if pick:
                return pick[0]
        return None

    def macro_where(self, name):
        return ", ".join("#define %s %s at %s:%d" % (name, ident, rel, ln)
                         for ident, rel, ln in self.macros().get(name, []))

    def drop_line(self, rel, idx, check, detail):
        """Remove an entry line; its items and the change note go to the
        line that follows it."""
        lines = self.files[rel]
        nxt = lines[idx + 1] if idx + 1 < len(lines) else lines[idx - 1]
        nxt.items.extend(lines[idx].items)
        nxt.items.append(Item("change", check, detail))
        span = 1
        t = lines[idx].text
        while t.count("(") > t.count(")") and idx + span < len(lines):
            t += lines[idx + span].text
            span += 1
        del lines[idx:idx + span]

    def check_entries(self, convert_items):
        do_cap, do_sig = not mutated("cap"), not mutated("sig")
        drops = []
        for rel, arr, idx, kind, a, b in self.entries():
            line = self.files[rel][idx]
            if kind == "other":
                if any(it.kind == "todo" for it in line.items):
                    continue
                line.items.append(Item("todo", "entry", (
                    "%s: `%s` in a hook list is not an LSM_HOOK_INIT() entry (a positional "
                    "or unconverted legacy entry): write LSM_HOOK_INIT(hook, fn) by hand"
                    % (arr, a))))
                continue
            if kind == "include":
                line.items.append(Item("todo", "entry", (
                    "%s: the hook list includes %s: the entries in it are not converted (the "
                    "rules read .c/.h files, and an entry is judged where it is written): move "
                    "them into the list as LSM_HOOK_INIT(hook, fn) entries, or convert %s by "
                    "hand" % (arr, a, a))))
                continue
            hook, fn = a, b
            if kind == "field" and hook not in self.hooks:
                # a designator that is the module's own macro
                # (`#define PTRACE_ACCESS_CHECK ptrace_access_check`) is
                # judged by what it expands to
                exp = self.expand(hook)
                if exp and exp in self.hooks:
                    indent = re.match(r"\s*", line.text).group(0)
                    rest = re.sub(r"^\s*\.\w+\s*=\s*\w+\s*,?", "", line.text)
                    line.text = "%sLSM_HOOK_INIT(%s, %s),%s" % (indent, exp, fn, rest)
                    line.items = [it for it in line.items if not (
                        it.check == "convert" and "not a hook of the target" in it.message)]
                    line.items.append(Item("change", "entry", (
                        "%s: .%s = %s -> LSM_HOOK_INIT(%s, %s): %s is the module's macro for %s "
                        "(%s)" % (arr, hook, fn, exp, fn, hook, exp, self.macro_where(hook)))))
                    kind = "init"
                    hook = exp
                elif exp and exp in self.renames:
                    line.items = [it for it in line.items if not (
                        it.check == "convert" and "not a hook of the target" in it.message)]
                    line.items.append(Item("change", "entry", (
                        "%s: .%s: %s is the module's macro for %s (%s): judged as .%s" % (
                            arr, hook, hook, exp, self.macro_where(hook), exp))))
                    hook = exp
            if kind == "field" and hook in self.hooks:
                line.items.append(Item("todo", "entry", (
                    "%s: .%s = %s left as a designated field (spatch did not see it): "
                    "write LSM_HOOK_INIT(%s, %s)" % (arr, hook, fn, hook, fn))))
                continue
            # converter todo on this line is replaced by the port's finding
            line.items = [it for it in line.items if not (
                it.check == "convert" and ("not a hook of the target" in it.message
                                           or "left-over ." in it.message))]
            if do_cap and fn.startswith("cap_"):
                d = self.cap_decision(hook, fn, kind)
                if d:
                    if d[0] == "drop":
                        drops.append((rel, idx, d[1]))
                        continue
                    line.items.append(Item("todo", "cap", d[1]))
            if kind == "field" or hook not in self.hooks:
                # a field left by the rules, or an LSM_HOOK_INIT() of a hook
                # the target does not have (an input in a later epoch's form)
                self.renamed(rel, idx, arr, hook, fn, do_sig, kind)
                continue
            if do_sig:
                self.signature(rel, idx, hook, fn)
        for rel, idx, detail in sorted(drops, key=lambda d: (d[0], -d[1])):
            self.drop_line(rel, idx, "cap", detail)

    def cap_decision(self, hook, fn, kind):
        entry = ("LSM_HOOK_INIT(%s, %s)" % (hook, fn)) if kind == "init" else \
            (".%s = %s" % (hook, fn))
        registered = [h for h, f in self.cap.items() if f == fn]
        if self.defines(fn):
            if capability.defined(self.target, fn):
                return ("todo", "%s: the module defines %s, which the target also declares "
                        "(include/linux/security.h): rename the module's function" % (entry, fn))
            return None
        if registered:
            return ("drop", "dropped %s: the target's capability module registers %s "
                    "for %s itself (security/commoncap.c), it would run twice"
                    % (entry, fn, ", ".join(registered)))
        if not capability.defined(self.target, fn):
            return ("drop", "dropped %s: %s is a legacy default stub (security/capability.c, "
                    "gone since 4.2); the framework's default answer replaces it"
                    % (entry, fn))
        return ("todo", "%s: the target has %s but capability does not register it as a "
                "hook (security.c calls it itself where needed): remove the entry unless "
                "your module really wants it as its own hook" % (entry, fn))

    def renamed(self, rel, idx, arr, old, fn, do_sig, kind="field"):
        line = self.files[rel][idx]
        row = self.renames.get(old)
        r = self.lookup(fn)
        proto = self.fn_proto(fn, r) if r else "%s (no prototype in the input)" % fn
        entry = (".%s = %s" if kind == "field" else "LSM_HOOK_INIT(%s, %s)") % (old, fn)
        if row is None:
            line.items.append(Item("todo", "sig", (
                "%s: %s: %s is not a hook of the target tree and not in lsmconv's "
                "renames table: a vendor hook (add it to the target's lsm_hook_defs.h), a hook of "
                "a later kernel or one removed upstream; port by hand" % (arr, entry, old))))
            return
        when = "in %s%s" % (row["version"], "" if row["commit"] == "-" else
                            " (%s)" % row["commit"])
        if not row["new"]:
            line.items.append(Item("todo", "sig", (
                "%s: %s: hook %s was removed %s: %s; remove the entry (and %s if "
                "nothing else uses it)" % (arr, entry, old, when, row["what"], fn))))
            return
        new = [n for n in row["new"] if n in self.hooks]
        if do_sig and len(new) == 1 and r and self.sig_matches(new[0], r):
            if kind == "field":
                indent = re.match(r"\s*", line.text).group(0)
                rest = re.sub(r"^\s*\.\w+\s*=\s*\w+\s*,?", "", line.text)
                line.text = "%sLSM_HOOK_INIT(%s, %s),%s" % (indent, new[0], fn, rest)
            else:
                line.text = re.sub(r"LSM_HOOK_INIT\s*\(\s*%s\s*," % old,
                                   "LSM_HOOK_INIT(%s," % new[0], line.text, count=1)
            line.items.append(Item("change", "sig", (
                "renamed %s -> LSM_HOOK_INIT(%s, %s): %s became %s %s and %s's "
                "signature matches it" % (entry, new[0], fn, old, new[0], when, fn))))
            return
        protos = "; ".join("target: %s" % self.hook_proto(n) for n in new)
        line.items.append(Item("todo", "sig", (
            "%s: %s: hook %s became %s %s: %s. %s: `%s`, %s; rewrite %s and register "
            "it as LSM_HOOK_INIT(%s, %s)" % (
                arr, entry, old, "/".join(row["new"]), when, row["what"], fn, proto,
                protos or "(the new hook is not in the target either)", fn,
                new[0] if new else row["new"][0], fn))))

    def signature(self, rel, idx, hook, fn):
        line = self.files[rel][idx]
        if hook not in self.hooks:
            return
        r = self.lookup(fn)
        if r is None and fn.startswith("cap_"):
            p = capability.prototype(self.target, fn)
            if p:
                m = re.match(r"(.*?)\b%s\s*\((.*)\)$" % re.escape(fn), p)
                if m:
                    params = hooks.split_args(m.group(2)) if m.group(2).strip() not in (
                        "", "void") else []
                    r = ("target", norm_type(m.group(1)), params, False)
        if r is None:
            line.items.append(Item("todo", "sig", (
                "LSM_HOOK_INIT(%s, %s): no definition or prototype of %s in the input: check "
                "it against the target hook `%s`" % (hook, fn, fn, self.hook_proto(hook)))))
            return
        if not self.sig_matches(hook, r):
            line.items.append(Item("todo", "sig", (
                "LSM_HOOK_INIT(%s, %s): signature differs from the target hook: `%s` "
                "(%s) vs target `%s`: port %s to the new signature" % (
                    hook, fn, self.fn_proto(fn, r),
                    "target" if r[0] == "target" else "%s:%d" % (r[0], r[4]),
                    self.hook_proto(hook), fn))))

    # -- registration
    def markers(self):
        """Code an earlier port run generated carries a MARK comment: the
        todo it came with is reported again until a human removes it."""
        for rel, lines in self.files.items():
            for l in lines:
                m = re.search(r"/\* %s (.*?) \*/" % re.escape(MARK), l.text)
                if m and not l.items:
                    l.items.append(Item("todo", "reg", (
                        "code written by an earlier port (%s): check it, then remove the "
                        "comment" % m.group(1))))

    def registration(self):
        code = self.code()
        allcode = "\n".join(code.values())
        has_lsm = re.search(r"\bDEFINE_(EARLY_)?LSM\s*\(", allcode)
        # module_init(fn) whose fn registers hooks
        for rel in self.files:
            lines = self.files[rel]
            for idx, l in enumerate(lines):
                m = re.match(r"\s*module_init\s*\(\s*(\w+)\s*\)\s*;", strip_comments(l.text))
                if m:
                    fn = m.group(1)
                    body = self.body(fn)
                    if body is None or "security_add_hooks" not in body:
                        continue
                    if has_lsm:
                        l.items.append(Item("todo", "reg", (
                            "module_init(%s) registers hooks, and a DEFINE_LSM exists: remove "
                            "it; LSM hooks can only be registered by a built-in LSM at boot" % fn)))
                        continue
                    lines[idx:idx + 1] = [Line(t) for t in [
                        "/* %s was module_init(%s): built in now */" % (MARK, fn)] +
                        self.define_lsm(fn)]
                    lines[idx].items.append(Item("todo", "reg", (
                        "module_init(%s) registered hooks: now DEFINE_LSM(%s) with .init = %s; "
                        "the target cannot load LSM hooks from a module, so the module is built "
                        "in (obj-y, a bool Kconfig option, CONFIG_LSM order): drop its "
                        "module_exit()/unload path and this comment" % (fn, self.ident, fn))))
                    has_lsm = True
                m = re.match(r"\s*security_initcall\s*\(\s*(\w+)\s*\)\s*;", strip_comments(l.text))
                if m and not has_lsm and not form.initcall(self.target):
                    # 4.2-4.10: the rules need a literal name in the
                    # security_add_hooks() call; the port has --name.
                    fn = m.group(1)
                    body = self.body(fn)
                    if body is None or "security_add_hooks" not in body:
                        continue
                    lines[idx:idx + 1] = [Line(t) for t in self.define_lsm(fn)]
                    lines[idx].items.append(Item("change", "reg", (
                        "security_initcall(%s) -> DEFINE_LSM(%s) with .name = \"%s\" (--name) "
                        "and .init = %s: the target starts LSMs from DEFINE_LSM" % (
                            fn, self.ident, self.name, fn))))
                    has_lsm = True
                    continue
                m = re.match(r"\s*module_exit\s*\(\s*(\w+)\s*\)\s*;", strip_comments(l.text))
                if m:
                    l.items.append(Item("todo", "reg", (
                        "module_exit(%s): a built-in LSM is never unloaded (hooks cannot be "
                        "removed at run time): remove %s and the exit path" % (
                            m.group(1), m.group(1)))))
        # hook lists nothing registers
        code = self.code()
        allcode = "\n".join(code.values())
        names = {arr for _, arr, _, _ in self.arrays()}
        for rel in self.files:
            for idx, t in enumerate(code[rel].split("\n")):
                m = re.search(r"security_add_hooks\s*\(\s*(\w+)", t)
                if m and m.group(1) not in names:
                    self.add(rel, idx, "todo", "reg", (
                        "security_add_hooks(%s, ...): no hook list %s in the module (the "
                        "registered ops struct had no initializer here): register the module's "
                        "real hook list" % (m.group(1), m.group(1))))
        unreg = [(rel, arr, last) for rel, arr, first, last in self.arrays()
                 if not re.search(r"security_add_hooks\s*\(\s*%s\b" % arr, allcode)]
        if not unreg:
            return
        if has_lsm:
            for rel, arr, last in unreg:
                self.add(rel, last, "todo", "reg", (
                    "hook list %s is registered nowhere: call security_add_hooks(%s, "
                    "ARRAY_SIZE(%s), \"%s\") from the DEFINE_LSM init" % (arr, arr, arr, self.name)))
            return
        rel, _, last = unreg[-1]
        init = self.ident + "_init"
        if re.search(r"\b%s\s*\(" % init, allcode):
            init = self.ident + "_lsm_init"
        # the code written here uses the lists: it is compiled under the
        # preprocessor conditions they are (the whole block under those all
        # lists share, each call under the rest of its list's)
        conds = [self.conditions(r, a_last) for r, _, a_last in unreg]
        common = conds[0]
        for c in conds[1:]:
            common = [d for d, e in zip(common, c) if d == e][:len(common)]
        block = ["", "/* %s added: nothing registered the hook list */" % MARK]
        block += common
        block += ["static int __init %s(void)" % init, "{"]
        for (_, arr, _), c in zip(unreg, conds):
            block += c[len(common):]
            block.append("\tsecurity_add_hooks(%s, ARRAY_SIZE(%s), \"%s\");"
                         % (arr, arr, self.name))
            block += ["#endif /* %s */" % d.split(None, 1)[1] for d in reversed(c[len(common):])]
        block += ["\treturn 0;", "}", ""] + self.define_lsm(init)
        block += ["#endif /* %s */" % d.split(None, 1)[1] for d in reversed(common)]
        lines = self.files[rel]
        at = len(lines)
        while at > 0 and lines[at - 1].text.strip() == "":
            at -= 1
        new = [Line(t) for t in block]
        lines[at:at] = new
        new[1].items.append(Item("todo", "reg", (
            "nothing registered %s: lsmconv added %s() calling security_add_hooks() and "
            "DEFINE_LSM(%s); check the name, the init order and CONFIG_LSM, then drop the "
            "comment" % (
                ", ".join(a for _, a, _ in unreg), init, self.ident))))

    def conditions(self, rel, idx):
        """The directives that reopen the preprocessor conditions around
        line idx of rel (lsmconv.cscan.conditions), without a header's
        include guard (`#ifndef X` followed by `#define X`)."""
        text = self.text(rel)
        lines = text.split("\n")
        out = []
        for d in cscan.conditions(text, idx + 1):
            m = re.match(r"#ifndef (\w+)$", d)
            if m and any(re.match(r"\s*#\s*define\s+%s\b" % m.group(1), l) for l in lines):
                guard = [i for i, l in enumerate(lines) if re.match(
                    r"\s*#\s*ifndef\s+%s\b" % m.group(1), l)]
                if guard and guard[0] + 1 < len(lines) and re.match(
                        r"\s*#\s*define\s+%s\b" % m.group(1), lines[guard[0] + 1]):
                    continue
            out.append(d)
        return out

    def define_lsm(self, init):
        return ["DEFINE_LSM(%s) = {" % self.ident, "\t.name = \"%s\"," % self.name,
                "\t.init = %s," % init, "};"]

    def body(self, fn):
        """The body `{ ... }` of fn's definition (comments and strings
        blanked), or None."""
        for code in self.code().values():
            for f in cscan.functions(code):
                if f.name == fn:
                    return code[f.open:f.close + 1]
        return None

    # -- blobs
    def blobs(self):
        blobs.rewrite(self, enabled=not mutated("blob"))

    # -- sweep
    def sweep(self, workdir):
        if mutated("sweep"):
            return
        d = os.path.join(workdir, "sweep")
        os.makedirs(d, exist_ok=True)
        tmp = os.path.join(workdir, "sweep-tmp")
        os.makedirs(tmp, exist_ok=True)
        paths = {}
        for n, rel in enumerate(self.files):
            # a name spatch can take (no blanks, short: its temporary files
            # add to it)
            p = os.path.join(d, "%d-%s" % (n, fsio.safe_name(rel.replace("/", "__"))))
            fsio.write_new(p, (self.text(rel) + "\n").encode("utf-8", "surrogateescape"))
            paths[p] = rel
        sys.stderr.write("port: legacy sweep (%s)\n" % os.path.basename(SWEEP))
        p = subprocess.run(["spatch", "--sp-file", SWEEP, "-D", "patch", "-D",
                            "target=" + os.path.abspath(self.target), "--python", sys.executable,
                            "--include-headers", "--very-quiet", "--dir", d],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True,
                           # spatch needs a HOME ("Not_found"); its files stay in the work dir
                           env=dict(os.environ, HOME=fsio.spatch_home(workdir), TMPDIR=tmp))
        # spatch exits 0 when it gives up on a file (EXN: Stack overflow):
        # a sweep that did not read a file must not pass for a clean one
        why = claims.failure(p.returncode, p.stderr)
        if why:
            raise Fail("spatch failed on %s (%s):\n%s" % (SWEEP, why, p.stderr[-2000:]),
                       exits.FAILED)
        for l in p.stdout.splitlines():
            parts = l.split("\t", 4)
            if len(parts) != 5 or parts[0] != "LSMCONV":
                continue
            rel = paths.get(parts[2]) or paths.get(os.path.join(d, os.path.basename(parts[2])))
            if rel is None:
                continue
            idx = int(parts[3]) - 1
            if 0 <= idx < len(self.files[rel]):
                self.add_sweep(rel, idx, parts[4])
        self.text_scan()
        self.group_ops()
        self.included_entries()

    def included_entries(self):
        """An #include inside a legacy ops initializer the rules left (its
        entries are in another file: the rules could not convert them)."""
        for rel in self.files:
            code = self.code()[rel]
            for m in re.finditer(r"\bstruct\s+security_operations\s+(\w+)\s*=\s*\{", code):
                end = cscan.match_paren(code, m.end() - 1)
                first = code.count("\n", 0, m.start())
                last = code.count("\n", 0, end) if end > 0 else first
                for idx in range(first, last + 1):
                    line = self.files[rel][idx]
                    inc = re.match(r'\s*#\s*include\s*["<]([^">]+)', line.text)
                    if inc and not any(it.kind == "todo" for it in line.items):
                        line.items.append(Item("todo", "entry", (
                            "%s: the ops initializer includes %s: the rules did not convert it "
                            "(they read .c/.h files, and an entry is converted where it is "
                            "written): move its entries into the list as LSM_HOOK_INIT(hook, fn) "
                            "entries, or convert %s by hand" % (m.group(1), inc.group(1),
                                                              inc.group(1)))))

    # a use of an ops object the sweep names, by what it says of the line
    OPS_USE = re.compile(r"legacy LSM API: (use of the ops vector (\w+)|call or assignment "
                         r"through (a struct security_operations|(\w+)) \(\.(\w+)\)|"
                         r"struct security_operations object)")

    def group_ops(self):
        """Each struct security_operations object the module keeps (a
        top-level variable) is one todo, at its declaration, listing its
        uses (the sweep's findings on the lines that name it), not one todo
        a use; an object a function of the module fills from its parameter
        at run time is named as the module's run-time registration API."""
        code = self.code()
        decl_re = re.compile(r"\bstruct\s+security_operations\s*(?:const\s+)?(\**)\s*"
                             r"(?:const\s+)?(\w+)\s*(\[[^\]]*\])?\s*[;=]")
        objs = {}               # name -> (rel, idx, pointer)
        funcs = {rel: cscan.functions(code[rel]) for rel in code}
        for rel in self.files:
            for idx, t in enumerate(code[rel].split("\n")):
                if cscan.function_at(funcs[rel], idx + 1) is not None:
                    continue
                m = decl_re.search(t)
                if m and m.group(2) not in objs:
                    objs[m.group(2)] = (rel, idx, bool(m.group(1)))
        for name, (drel, didx, ptr) in sorted(objs.items(), key=lambda o: o[1][:2]):
            # run-time registration: a function that stores its parameter in it
            regs = []
            for rel in self.files:
                for f in funcs[rel]:
                    params = [cscan.param(p) for p in cscan.split_args(f.params)]
                    body = code[rel][f.open:f.close]
                    for typ, pname in params:
                        if pname and re.search(r"\bsecurity_operations\b", typ) and re.search(
                                r"\b%s\s*=\s*%s\s*;" % (re.escape(name), re.escape(pname)), body):
                            exported = re.search(r"\bEXPORT_SYMBOL(_GPL)?\s*\(\s*%s\s*\)"
                                                 % f.name, code[rel])
                            regs.append((f, rel, exported))
            uses = []
            for rel in self.files:
                lines = code[rel].split("\n")
                for idx, line in enumerate(self.files[rel]):
                    if (rel, idx) == (drel, didx):
                        continue
                    reg_param = any(r == rel and f.line - 1 <= idx < f.body_line
                                    for f, r, _ in regs)
                    if not reg_param and not re.search(r"\b%s\b" % re.escape(name), lines[idx]):
                        continue
                    for it in line.items:
                        m = self.OPS_USE.search(it.message) if (
                            it.kind == "todo" and it.check == "sweep") else None
                        if not m or (m.group(2) or m.group(4) or name) != name or (
                                m.group(0).endswith("object") and not reg_param):
                            continue
                        what = ("call or assignment .%s" % m.group(5)) if m.group(5) else (
                            "the parameter of %s()" % [f.name for f, r, _ in regs if r == rel
                                                       and f.line - 1 <= idx < f.body_line][0]
                            if reg_param else "use")
                        uses.append((rel, idx, it, what))
                        break
            if not uses:
                continue
            for rel, idx, it, _ in uses:
                self.files[rel][idx].items.remove(it)
            dline = self.files[drel][didx]
            dline.items = [it for it in dline.items if not (
                it.kind == "todo" and it.check == "sweep" and
                it.message.startswith("legacy LSM API: struct security_operations object"))]
            listed = ", ".join("%s:%d (%s)" % (r, i + 1, w) for r, i, _, w in uses)
            text = ("legacy LSM API: %s, a struct security_operations%s the module keeps, and "
                    "its %d use(s): %s: there is no ops object any more" % (
                        name, " *" if ptr else "", len(uses), listed))
            if regs:
                text += ("; it is the module's run-time registration API: %s stores the table "
                         "other code passes at run time, and the module's hooks call through "
                         "it. The hook-list API has no run-time registration: hooks are "
                         "registered once, at boot, by built-in LSMs (security_add_hooks() from "
                         "a DEFINE_LSM init; the lists are read-only after init). Make each "
                         "user of %s an LSM of its own (its hooks in a security_hook_list, "
                         "stacked: the framework calls every LSM's hook), or turn %s into a "
                         "callback table of the module's own type (not struct "
                         "security_operations) that %s fills and the hooks call" % (
                             ", ".join("%s() (%s:%d%s)" % (f.name, r, f.line,
                                                          ", exported" if e else "")
                                       for f, r, e in regs),
                             " and ".join("%s()" % f.name for f, _, _ in regs), name,
                             " and ".join("%s()" % f.name for f, _, _ in regs)))
            else:
                text += ": call the module's functions directly, or let the framework call the " \
                        "hook (stacked modules all run)"
            dline.items.append(Item("todo", "sweep", text))

    def add_sweep(self, rel, idx, detail):
        line = self.files[rel][idx]
        if any(it.kind == "todo" for it in line.items):
            return
        line.items.append(Item("todo", "sweep", detail))

    def text_scan(self):
        """What spatch does not see: macro bodies, #include of capability.c,
        and (last resort) any legacy token on a line with no finding."""
        code = self.code()
        allcode = "\n".join(code.values())
        ops = set(re.findall(r"struct\s+security_operations\s*(?:const\s+)?\**\s*"
                             r"(?:const\s+)?(\w+)\s*[;=,)\[]", allcode))
        ops |= {"security_ops", "secondary_ops"}
        ops_re = r"\b(%s)\s*(\.|->)" % "|".join(sorted(re.escape(o) for o in ops))
        initcall = form.initcall(self.target)
        for rel, text in code.items():
            raw = [l.text for l in self.files[rel]]
            lines = text.split("\n")
            i = 0
            while i < len(lines):
                t = lines[i]
                start = i
                if re.match(r"\s*#\s*define\b", t):
                    body, i = cscan.logical_line(lines, i)
                    m = re.match(r"\s*#\s*define\s+(\w+)(\(([^)]*)\))?", body)
                    margs = [a.strip() for a in (m.group(3) or "").split(",") if a.strip()] \
                        if m else []
                    setter = [a for a in margs if re.search(
                        r"(->|\.)\s*%s\s*=(?!=)" % re.escape(a), body)]
                    why = None
                    if setter:
                        why = "assigns the member its argument %s names (a run-time hook " \
                            "swap)" % setter[0]
                    elif re.search(ops_re, body):
                        why = "calls or assigns through an ops vector (%s)" % re.search(
                            ops_re, body).group(1)
                    elif re.search(r"\b(%s)\b" % "|".join(LEGACY_TOKENS), body):
                        why = "uses %s" % re.search(r"\b(%s)\b" % "|".join(LEGACY_TOKENS),
                                                    body).group(1)
                    if why and m:
                        self.add_sweep(rel, start, (
                            "legacy LSM API: macro %s %s: its users change the ops vector or "
                            "call through it at run time; hooks are registered once at boot, "
                            "so decide at init which hooks to register and call functions "
                            "directly" % (m.group(1), why)))
                    i += 1
                    continue
                if re.match(r"\s*#\s*include\s*[\"<][^\">]*\bcapability\.c[\">]", raw[i]):
                    self.add_sweep(rel, i, (
                        "legacy LSM API: #include of capability.c (removed in 4.2): drop it; "
                        "capability is its own LSM and its default stubs are gone"))
                elif re.search(r"\bcall_(int|void)_hook\s*\(", t):
                    self.add_sweep(rel, i, (
                        "call_int_hook()/call_void_hook() (a call through the ops vector, "
                        "converted) are private to security/security.c: in a module call the "
                        "function directly, or the security_*() wrapper"))
                elif re.search(r"\bstruct\s+security_operations\s*\{", t):
                    self.add_sweep(rel, i, (
                        "legacy LSM API: a definition of struct security_operations (a private "
                        "copy of the legacy vector): delete it with its last user"))
                elif re.search(r"\b(%s)\b" % "|".join(sorted(ops)), t):
                    self.add_sweep(rel, i, (
                        "legacy LSM API: use of the ops vector %s, which no longer exists: "
                        "remove it; call the module's functions directly" % re.search(
                            r"\b(%s)\b" % "|".join(sorted(ops)), t).group(1)))
                else:
                    m = re.search(r"\b(%s)\b" % "|".join(LEGACY_TOKENS), t)
                    if not m and not initcall:
                        m = re.search(r"\b(security_initcall)\b", t)
                    if m:
                        self.add_sweep(rel, i, (
                            "legacy LSM API: %s (found by the text scan: the semantic sweep "
                            "did not match this code, e.g. spatch could not parse it): "
                            "rewrite by hand" % m.group(1)))
                i += 1

# ---------------------------------------------------------------- driver

def collect(src):
    """(rels, skipped): the module's .c/.h files (regular files, symlinks to
    them followed), and [(rel, why)] of the .c/.h names that are no regular
    file (a FIFO, a device, a socket, a dangling or looping link: found with
    lstat/stat, never opened)."""
    out, skipped = [], []
    for d, dirs, files in os.walk(src):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                rel = os.path.relpath(os.path.join(d, f), src)
                why = fsio.input_problem(os.path.join(src, rel))
                if why:
                    skipped.append((rel, why))
                else:
                    out.append(rel)
    return out, skipped


def read_source(path):
    """(text, crlf) of a module file: its bytes as text (undecodable bytes
    kept as surrogates, a BOM kept), CRLF line ends made LF when every line
    has one (crlf True: written back as CRLF), any other CR kept."""
    data = fsio.read_file(path)[0]
    crlf = fsio.crlf(data)
    if crlf:
        data = data.replace(b"\r\n", b"\n")
    return data.decode("utf-8", "surrogateescape"), crlf


def source_bytes(text, crlf):
    """read_source()'s inverse."""
    data = text.encode("utf-8", "surrogateescape")
    return data.replace(b"\n", b"\r\n") if crlf else data


def render_report(port, args, epoch, items, skipped):
    meta = [("module", args.name), ("input", args.dir), ("target", args.target),
            ("epoch recognised", epoch)]
    if os.environ.get("LSMCONV_PORT_MUTATE"):
        meta.append(("MUTATED (test only)", "check %s disabled"
                     % os.environ["LSMCONV_PORT_MUTATE"]))
    meta.append(("files", len(port.files)))
    if skipped:
        meta.append(("not read (no regular file)", len(skipped)))
    return report.render_port(meta, items).encode("utf-8", "replace")


def port_main(args):
    src = args.dir
    if not os.path.isdir(src):
        raise Fail("not a directory: %s" % src)
    if not os.path.isfile(os.path.join(args.target, "include/linux/lsm_hook_defs.h")):
        raise Fail("not a kernel tree with include/linux/lsm_hook_defs.h (--target): %s"
                   % args.target)
    if not re.match(r"^[a-z][a-z0-9_-]*$", args.name):
        raise Fail("--name must be a lower-case LSM name ([a-z][a-z0-9_-]*): %s" % args.name)
    rels, skipped = collect(src)
    for r, why in skipped:
        sys.stderr.write("convert.sh port: %s: not read: %s (only regular files are ported)\n"
                         % (os.path.join(src, r), why))
    if not rels:
        raise Fail("no .c or .h file in %s" % src)
    seen = {}
    for r in rels:
        b = os.path.basename(r)
        if b in seen:
            raise Fail("two files named %s (%s, %s): convert.sh file needs unique names"
                       % (b, seen[b], r))
        seen[b] = r
    out = args.out or os.path.join(ROOT, "build", "port", args.name)
    if (os.path.abspath(out) + os.sep).startswith(os.path.abspath(src) + os.sep):
        raise Fail("--out must not be the input directory or inside it: %s" % out)
    if os.path.isdir(out) and os.listdir(out) and not os.path.exists(os.path.join(out, MARKER)):
        raise Fail("--out %s exists and was not written by convert.sh port: not touching it"
                   % out)
    if os.path.lexists(out) and not os.path.isdir(out):
        raise Fail("--out is not a directory: %s" % out)
    for opt, path in (("--report", args.report), ("--items", args.items)):
        if path:
            if not os.path.lexists(out) and not os.path.lexists(path) and \
                    os.path.dirname(os.path.abspath(path)) == os.path.abspath(out):
                continue    # in the --out this run makes
            why = fsio.check_output(path, opt)
            if why:
                raise Fail(why)
    # the files the module includes that are not .c/.h ("hooks.lst"):
    # not converted, but copied, and read by the checks like the rest
    extra = headers.included_files(src, rels)
    # the output-safety layer: no output is an input or another output
    ins = [("", src)] + [("", os.path.join(src, r)) for r in rels + extra]
    ins += [("--target file", os.path.join(args.target, "include/linux/lsm_hook_defs.h"))]
    outs = [("--report", args.report), ("--items", args.items), ("--out", out),
            ("--out", os.path.join(out, MARKER))]
    outs += [("--out", os.path.join(out, r)) for r in rels + extra]
    try:
        fsio.check_paths(ins, outs)
        # one port per --out at a time: a second one refuses at once
        lock = fsio.lock_dir(out)
    except fsio.Clash as e:
        raise Fail(str(e))

    texts, crlf = {}, {}
    for r in rels + extra:
        try:
            texts[r], crlf[r] = read_source(os.path.join(src, r))
        except OSError as e:
            raise Fail("cannot read %s: %s" % (os.path.join(src, r), e.strerror or e))
    epoch = recognise(texts[r] for r in rels)
    work = tempfile.mkdtemp(prefix="lsmconv-port.")
    try:
        os.makedirs(os.path.join(work, "in"))
        os.makedirs(os.path.join(work, "conv"))
        inputs = []
        for r in rels:
            p = os.path.join(work, "in", os.path.basename(r))
            # work: the bytes as read (the converter keeps CRLF itself)
            fsio.write_new(p, source_bytes(texts[r], crlf[r]))
            inputs.append(p)
        conv_items = os.path.join(work, "convert-items.jsonl")
        run_convert(args.target, inputs, os.path.join(work, "conv"), conv_items)
        files, final_nl = {}, {}
        for r in rels + extra:
            if r in rels:
                t = read_source(os.path.join(work, "conv", os.path.basename(r)))[0]
            else:
                t = texts[r]
            final_nl[r] = t.endswith("\n")
            if final_nl[r]:
                t = t[:-1]
            files[r] = [Line(x) for x in t.split("\n")]
        rels = rels + extra
        port = Port(args.target, args.name, files)
        for base, ln, detail in convert_todos(conv_items):
            r = seen.get(base)
            if r and 0 < ln <= len(files[r]):
                line = files[r][ln - 1]
                m = re.match(r"(\w+)\(\): ", detail)
                if m and m.group(1) in LEGACY_FUNCS and not re.search(
                        r"\b%s\b" % m.group(1),
                        strip_comments("\n".join(x.text for x in files[r]))):
                    line.items.append(Item("change", "convert", (
                        "%s() is no longer in the output: the converter removed it with the "
                        "dead register_security() error path it was in" % m.group(1))))
                    continue
                line.items.append(Item("todo", "convert", detail))
        port.markers()
        port.registration()
        if not mutated("name"):
            lsmname.rename(port)
        if not mutated("lsmid"):
            lsmid.convert(port)
        port.blobs()
        lsmid.ro_attribute(port)
        sys.stderr.write("port: checking hook lists (cap_* entries, signatures, renames)\n")
        port.check_entries(None)
        port.sweep(work)
        if not mutated("include"):
            headers.check(port)
            headers.type_includes(port)
        if not mutated("config"):
            modconfig.check(port)
        found = [I.placed(it, r, i + 1) for r in rels for i, l in enumerate(port.files[r])
                 for it in l.items]
        # what was not read is named: never an all-clear over it
        found += [I.placed(Item("todo", "input", "not read: %s (only regular files are "
                                "ported): port it by hand or replace it by a regular file"
                                % why), r, 0) for r, why in skipped]
        todos = [it for it in found if I.state_of(it) == "todo"]
        text = render_report(port, args, epoch, found, skipped)
        write_results(args, out, rels, port, final_nl, crlf, found, text)
    except Interrupted as e:
        raise Fail("interrupted: nothing written", exits.interrupted(e.signum))
    finally:
        exits.Signals.deferred = True
        shutil.rmtree(work, ignore_errors=True)
        os.close(lock)
    if todos:
        sys.stderr.write("port: %d item(s) left for a human (see the report)\n" % len(todos))
        return exits.TODO
    return exits.DONE


def write_results(args, out, rels, port, final_nl, crlf, found, text):
    """Every file through lsmconv.fsio: the module's files, the items and
    the report staged next to their destinations, then renamed into place;
    a signal from here on is noted, not obeyed (the run ends complete, as
    the driver's does).  On a failure the message names what was written."""
    exits.Signals.deferred = True    # past the point of no return: a signal is noted, not obeyed
    written = []
    outputs = []
    suffix = ".lsmconv-tmp.%d" % os.getpid()
    try:
        try:
            if not os.path.isdir(out):
                os.makedirs(out)
                written.append(out + "/")
            marker = os.path.join(out, MARKER)
            if not os.path.exists(marker):
                fsio.write_new(marker, b"written by lsmconv convert.sh port\n")
                written.append(marker)
            for r in rels:
                dst = os.path.join(out, r)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                data = source_bytes(port.text(r) + ("\n" if final_nl[r] else ""), crlf[r])
                outputs.append(fsio.Output(dst, suffix))
                outputs[-1].stage(data)
            if args.items:
                outputs.append(fsio.Output(args.items, suffix))
                outputs[-1].stage(I.dumps(found).encode("utf-8", "surrogateescape"))
            if args.report:
                outputs.append(fsio.Output(args.report, suffix))
                outputs[-1].stage(text)
            for o in outputs:
                o.commit()
                written.append(o.path)
            if not args.report:
                sys.stdout.flush()
                sys.stdout.buffer.write(text)
                sys.stdout.flush()
        finally:
            for o in outputs:
                o.discard()
    except OSError as e:
        raise Fail("writing the result failed: %s%s; written: %s" % (
            e.strerror or e, ": %s" % e.filename if e.filename else "",
            ", ".join(written) or "nothing"), exits.FAILED)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="convert.sh port", description=(
        "Port a legacy security module: convert it, then name everything legacy that is left."))
    ap.add_argument("dir", help="directory with the module's .c/.h files")
    ap.add_argument("--target", default=paths.default_tree())
    ap.add_argument("--name", required=True, help="the LSM name (lower case)")
    ap.add_argument("--out", help="output directory (default build/port/NAME)")
    ap.add_argument("--report", help="Markdown report (default: stdout)")
    ap.add_argument("--items", help="the items (lsmconv.items, one JSON object a line)")
    argv = sys.argv[1:] if argv is None else argv
    # --help anywhere before "--" wins over every other argument
    if {"-h", "--help"} & set(argv[:argv.index("--")] if "--" in argv else argv):
        ap.print_help()
        return exits.DONE
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return exits.USAGE if e.code else exits.DONE
    exits.catch_signals()
    try:
        return port_main(args)
    except Fail as e:
        sys.stderr.write("convert.sh port: %s\n" % exits.describe(e))
        return e.code
    except Interrupted as e:
        sys.stderr.write("convert.sh port: %s\n" % exits.describe(e))
        return exits.interrupted(e.signum)


if __name__ == "__main__":
    sys.exit(main())
