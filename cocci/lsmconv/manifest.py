# SPDX-License-Identifier: GPL-2.0
"""The manifest of the converter's rules and the series' steps
(cocci/manifest.tsv; its header documents the columns): the one parser.

    python3 -m lsmconv.manifest rules [IDS]  "ID<TAB>cocci/FILE<TAB>KIND<TAB>STEP"
                                             per rule, in rule order (IDS:
                                             comma-separated ids, checked)
    python3 -m lsmconv.manifest files IDS    "cocci/FILE" per rule of IDS,
                                             in rule order
    python3 -m lsmconv.manifest steps        "NAME<TAB>SUBJECT<TAB>COMMANDS"
                                             per series step, in order;
                                             COMMANDS ';'-separated:
                                             "forward NAME" or "rules ID,ID"
                                             (empty: the step runs nothing)
    python3 -m lsmconv.manifest check        the manifest against cocci/:
                                             one line per problem, exit 1

Options (before the command): --manifest FILE (default cocci/manifest.tsv),
--cocci DIR (where the rule files are; default the manifest's directory).
Exit 0, 1 (check found problems), 2 usage or a manifest that does not
parse (the message names FILE:LINE).
"""
import os
import re
import sys
from collections import namedtuple

from . import paths as P

PATH = os.path.join(P.COCCI, "manifest.tsv")

Rule = namedtuple("Rule", "id file kind after step line")
Step = namedtuple("Step", "name runs subject line")

KINDS = ("spatch", "text")
RULE_FILE = re.compile(r"^[0-9]+-.*\.cocci$")


class ManifestError(Exception):
    pass


def where(path):
    """A manifest's name for messages: relative to the repository."""
    rel = os.path.relpath(os.path.abspath(path), P.ROOT)
    return path if rel.startswith("..") else rel


def _split_list(value, sep):
    return [] if value == "-" else value.split(sep)


class Manifest:
    def __init__(self, path, rules, steps):
        self.path = path
        self.rules = rules      # [Rule], in rule order
        self.steps = steps      # [Step], in series order
        self.cocci = os.path.dirname(os.path.abspath(path))

    def where(self):
        return where(self.path)

    def ids(self):
        return [r.id for r in self.rules]

    def select(self, ids=None):
        """The rules whose id is in IDS (a list; None: every rule), in rule
        order; an id the manifest does not have is a ManifestError."""
        if ids is None:
            return list(self.rules)
        known = set(self.ids())
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise ManifestError("no rule %s in %s (its rules: %s)"
                                % (", ".join(unknown), self.where(), ",".join(self.ids())))
        want = set(ids)
        return [r for r in self.rules if r.id in want]

    def rule_path(self, rule):
        return os.path.join(self.cocci, rule.file)

    def forward_steps(self):
        """forward.py's steps, in series order."""
        return tuple(c.split(" ", 1)[1] for s in self.steps for c in s.runs
                     if c.startswith("forward "))

    def commands(self, step):
        """STEP's commands, in order: "forward NAME" or "rules ID,ID"."""
        out = []
        for c in step.runs:
            if c == "rules":
                c = "rules " + ",".join(r.id for r in self.rules if r.step == step.name)
            out.append(c)
        return out


def load(path=PATH):
    """Parse the manifest and check it is consistent in itself (not against
    cocci/: that is check()).  Raises ManifestError naming FILE:LINE."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ManifestError("cannot read the manifest %s: %s" % (where(path), e.strerror))
    rules, steps = [], []

    def bad(n, msg):
        raise ManifestError("%s:%d: %s" % (where(path), n, msg))

    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if cols[0] == "rule":
            if len(cols) != 6:
                bad(n, "a rule row has 6 tab-separated columns, not %d" % len(cols))
            _, rid, fname, kind, after, step = cols
            if not re.match(r"^[0-9]+$", rid):
                bad(n, "rule id '%s' is not digits" % rid)
            if not (RULE_FILE.match(fname) and fname.startswith(rid + "-")) or "/" in fname:
                bad(n, "rule %s: file '%s' is not %s-NAME.cocci" % (rid, fname, rid))
            if kind not in KINDS:
                bad(n, "rule %s: kind '%s' is not one of %s" % (rid, kind, ", ".join(KINDS)))
            if any(r.id == rid for r in rules):
                bad(n, "rule %s: a second row with that id" % rid)
            deps = _split_list(after, ",")
            for d in deps:
                if not any(r.id == d for r in rules):
                    bad(n, "rule %s runs after '%s', which is not an earlier rule row" % (rid, d))
            rules.append(Rule(rid, fname, kind, tuple(deps), None if step == "-" else step, n))
        elif cols[0] == "step":
            if len(cols) != 4:
                bad(n, "a step row has 4 tab-separated columns, not %d" % len(cols))
            _, name, runs, subject = cols
            if not re.match(r"^[a-z][a-z0-9-]*$", name):
                bad(n, "step name '%s' is not [a-z][a-z0-9-]*" % name)
            if any(s.name == name for s in steps):
                bad(n, "step %s: a second row with that name" % name)
            if not subject.strip():
                bad(n, "step %s: no subject" % name)
            cmds = _split_list(runs, ";")
            for c in cmds:
                if not (c == "rules" or re.match(r"^forward [a-z][a-z0-9-]*$", c)):
                    bad(n, "step %s: '%s' is neither 'rules' nor 'forward NAME'" % (name, c))
            steps.append(Step(name, tuple(cmds), subject, n))
        else:
            bad(n, "'%s': a row is 'rule' or 'step'" % cols[0])
    m = Manifest(path, rules, steps)
    fwd = m.forward_steps()
    for s in steps:
        for c in s.runs:
            if c.startswith("forward ") and fwd.count(c[8:]) > 1:
                bad(s.line, "step %s: forward step '%s' runs more than once" % (s.name, c[8:]))
        if "rules" in s.runs and not any(r.step == s.name for r in rules):
            bad(s.line, "step %s runs 'rules' but no rule row names it" % s.name)
    for r in rules:
        st = [s for s in steps if s.name == r.step]
        if r.step is not None and not (st and "rules" in st[0].runs):
            bad(r.line, "rule %s: step '%s' is not a step that runs 'rules'" % (r.id, r.step))
    return m


def header(path, field):
    """The value of a rule file's `// FIELD: value` header line, or ''."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for text in f:
            m = re.match(r"^// %s:\s*(.*)$" % re.escape(field), text.rstrip("\n"))
            if m:
                return m.group(1).strip()
    return ""


def text_pass(path):
    """The module a rule's `// Text pass: MODULE` header names, or ''."""
    return header(path, "Text pass")


def check(m, cocci=None):
    """The manifest against the rule files: [problem]."""
    cocci = cocci or m.cocci
    name = m.where()
    out = []
    listed = set(r.file for r in m.rules)
    try:
        present = sorted(f for f in os.listdir(cocci) if RULE_FILE.match(f))
    except OSError as e:
        return ["%s: %s" % (cocci, e.strerror)]
    for f in present:
        if f not in listed:
            out.append("cocci/%s: not a rule of %s (add a rule row)" % (f, name))
    for r in m.rules:
        p = os.path.join(cocci, r.file)
        if not os.path.isfile(p) or os.path.islink(p):
            out.append("%s:%d: rule %s: no file cocci/%s" % (name, r.line, r.id, r.file))
            continue
        module = text_pass(p)
        if bool(module) != (r.kind == "text"):
            out.append("%s:%d: rule %s is kind %s, but cocci/%s %s a `// Text pass:` header"
                       % (name, r.line, r.id, r.kind, r.file, "has" if module else "has no"))
    return out


USAGE = "usage: python3 -m lsmconv.manifest [--manifest FILE] [--cocci DIR] rules [IDS] | files IDS | steps | check\n"


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    path, cocci = PATH, None
    while args and args[0] in ("--manifest", "--cocci") and len(args) >= 2:
        if args[0] == "--manifest":
            path = args[1]
        else:
            cocci = args[1]
        args = args[2:]
    if not args or args[0] not in ("rules", "files", "steps", "check") or \
            len(args) > (1 if args[0] in ("steps", "check") else 2) or \
            (args[0] == "files" and len(args) != 2):
        sys.stderr.write(USAGE)
        return 2
    try:
        m = load(path)
        if args[0] in ("rules", "files"):
            rules = m.select(args[1].split(",") if len(args) == 2 else None)
            for r in rules:
                if args[0] == "files":
                    print("cocci/" + r.file)
                else:
                    print("\t".join((r.id, "cocci/" + r.file, r.kind, r.step or "-")))
        elif args[0] == "steps":
            for s in m.steps:
                print("\t".join((s.name, s.subject, ";".join(m.commands(s)))))
        else:
            problems = check(m, cocci)
            for p in problems:
                sys.stderr.write("lsmconv.manifest: %s\n" % p)
            return 1 if problems else 0
    except ManifestError as e:
        sys.stderr.write("lsmconv.manifest: error: %s\n" % e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
