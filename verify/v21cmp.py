#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""v21cmp.py - compare a series for Linux 4.0 with the v21 seeds, hunk by hunk.

usage: v21cmp.py --base TREE --seeds DIR --ours REPO [--reasons FILE] [--md FILE]

TREE is the pristine tree v21 was written for (../shared/trees/
linux-4.0-v21base.tar.xz, extracted), DIR the seed patches (the files whose
Subject is "[PATCH n/7 v21] ..."; 1/7, 4/7 and 5/7 are required), REPO a git
repository whose first-parent history on HEAD starts at a commit equal to
TREE and has one commit per step of our series.  Our steps are matched to
the seeds by subject (case, "Macros"/"macros" and the "[PATCH n/7 v21]"
prefix do not count).

The seeds' post-images are made in memory: S1 = TREE + 1/7, S4 = S1 + 4/7,
S5 = S4 + 5/7.  5/7's include/linux/lsm_hooks.h hunk has context from after
2/7 and 3/7 (not among the seeds): its added lines are placed after the end
of `struct security_operations {...};` in S4's lsm_hooks.h and only they
are compared.  The seed's own index lines are checked on every pre- and
post-image (TREE's blobs against 1/7's, git's blob hash), so a TREE that is
not the base, or a seed that does not apply as it says, is an input error.

Each seed's post-image of every file it or our step changes is compared
with our tree after that step (git cat-file COMMIT:path), in tokens
(tokdiff.tokens(): whitespace ignored, comments as tokens of their own):
lines are aligned without their whitespace, and each block of lines that
differs is compared token by token.  A difference is one run of differing
tokens; one that already existed between the previous step's post-images
(the same tokens on both sides and three of context) is "carried from an
earlier patch" and not counted again.  Each seed hunk is "identical bytes", "whitespace only",
"only comments differ" or "different".  A hunk that rewrites a module's
hook initializer (its added lines use LSM_HOOK_INIT) and is not token-equal
is compared by its (hook, function) pairs instead, whatever the syntax
(`LSM_HOOK_INIT(h, f)` or `.h = f`), in the first of our steps from the
matching one on that changes the initializer ("pairs equal", and the step
is named): lsmconv may convert the modules in a later step.

Output (stdout; the same Markdown into FILE with --md): our steps and the
v21 patch each stands for, what could not be compared, one table per seed
(rows: its files; columns: its hunks by class, the tokens of its added and
removed lines and how many are identical in ours; a removed token counts
as identical unless a difference of its hunk keeps it on our side), a
table of totals, then every difference with its seed, file, seed hunk
header, the tokens around it ([-seed-]{+ours+}) and its reason, and the
carried ones apart.  Differences outside the seed's hunks (ours changed
more, or another file) are listed and counted too.

Reasons come from FILE (default verify/v21-reasons.tsv, documented in its
header): the first row whose seed and file glob fit and whose regex
matches the differing text of either side; none is "unexplained".

Exit 0 when every difference has a reason of class choice; 1 when one is
unexplained or a defect; 2 usage or input error (nothing written).
"""
import argparse
import bisect
import collections
import difflib
import fnmatch
import hashlib
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tokdiff  # noqa: E402

EXIT_OK, EXIT_TODO, EXIT_USAGE = 0, 1, 2
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_REASONS = os.path.join(HERE, "v21-reasons.tsv")
REQUIRED = (1, 4, 5)
# The v21 patches the seeds do not have, and what they did.
ABSENT = {
    2: "the hook documentation moved from security.h to lsm_hooks.h (with 3/7)",
    3: "the hook documentation moved from security.h to lsm_hooks.h (with 2/7)",
    6: "LSM: Switch to lists of hooks",
    7: "LSM: Remove unused capability.c",
}
# Our steps that no seed stands for, by normalised subject.
UNSEEDED = {
    "lsm: move the hook documentation to lsm_hooks.h": "2/7+3/7",
    "lsm: switch to lists of hooks": "6/7",
    "lsm: remove unused capability.c": "7/7",
}
CLASS_NAMES = {"bytes": "identical bytes", "ws": "whitespace only",
               "comment": "only comments differ", "diff": "different",
               "pairs": "pairs equal"}


class InputError(Exception):
    """Bad input: exit 2, nothing written."""


# --- text --------------------------------------------------------------------

def split_lines(text):
    """TEXT as lines without their newline (None: the file is absent)."""
    if text is None:
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def blob_id(data):
    """git's blob id of DATA (bytes), what `git hash-object` prints."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def encode(text):
    return text.encode("utf-8", "surrogateescape")


def decode(data):
    return data.decode("utf-8", "surrogateescape")


def normalise_subject(s):
    """A subject without "[PATCH n/7 v21]" prefixes, case or extra spaces."""
    s = s.strip()
    while s.startswith("["):
        end = s.find("]")
        if end < 0:
            break
        s = s[end + 1:].strip()
    return " ".join(s.lower().split()).rstrip(".")


def is_comment(tok):
    return tok.startswith("/*") or tok.startswith("//")


class Tokens:
    """The tokens of a file's LINES with the line each starts and ends on."""

    def __init__(self, lines):
        text = "\n".join(lines) + "\n"
        starts = [0]
        for ln in lines:
            starts.append(starts[-1] + len(ln) + 1)
        self.toks, self.first, self.last = [], [], []
        self.disp = []      # as shown: a comment's whitespace as one space
        for tok, off in tokdiff.tokens(text):
            self.toks.append(tok)
            self.disp.append(" ".join(tokdiff.TOKEN.match(text, off).group().split())
                             if is_comment(tok) else tok)
            first = bisect.bisect_right(starts, off) - 1
            self.first.append(first)
            # only a block comment spans lines (its token lost the newlines)
            end = text.find("*/", off) + 1 if tok.startswith("/*") else off
            self.last.append(bisect.bisect_right(starts, end) - 1 if end > off else first)

    def span(self, lo, hi):
        """Index range of the tokens that touch lines [lo, hi)."""
        a = bisect.bisect_left(self.last, lo)
        b = bisect.bisect_left(self.first, hi)
        return a, max(a, b)

    def on_lines(self, lineset):
        """Indices of the tokens that start on one of LINESET."""
        return [i for i, ln in enumerate(self.first) if ln in lineset]


# --- patches -----------------------------------------------------------------

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")
INDEX = re.compile(r"^index ([0-9a-f]+)\.\.([0-9a-f]+)")


class Hunk:
    def __init__(self, header, old_start, old_len, new_start, new_len):
        self.header = header
        self.old_start, self.old_len = old_start, old_len
        self.new_start, self.new_len = new_start, new_len
        self.lines = []         # (op, text): op in " +-"
        self.repaired = 0       # blank context lines restored at the end
        # set when applied: the region in the post-image, the + lines
        # (post-image indices) and the - lines (pre-image indices)
        self.post = (0, 0)
        self.plus, self.minus = [], []
        self.anchored = None    # how an anchored hunk was placed

    def short(self, most=60):
        """The header, its function context cut to MOST characters."""
        h = " ".join(self.header.split())
        return h if len(h) <= most else h[:most - 1] + "…"

    def uses_hook_init(self):
        """Its added lines fill a module's initializer with LSM_HOOK_INIT."""
        return any(op == "+" and re.match(r"\s*LSM_HOOK_INIT\s*\(", t) for op, t in self.lines)


class FilePatch:
    def __init__(self, path):
        self.path = path
        self.old_blob = self.new_blob = None
        self.new_file = self.deleted = False
        self.no_eol = False
        self.hunks = []


class Patch:
    def __init__(self, name, text):
        self.name = name                  # the file's number: "002"
        self.subject = ""
        self.number = self.total = 0
        self.files = []
        self._parse(text)

    def _parse(self, text):
        lines = split_lines(text)
        for ln in lines:
            if ln.startswith("Subject:"):
                self.subject = ln[len("Subject:"):].strip()
                m = re.search(r"\[PATCH\s+(\d+)/(\d+)", self.subject)
                if m:
                    self.number, self.total = int(m.group(1)), int(m.group(2))
                break
        fp = hunk = None
        need_old = need_new = 0
        for ln in lines:
            if ln.startswith("diff --git "):
                self._close(hunk, need_old, need_new)
                hunk = None
                need_old = need_new = 0
                fp = FilePatch(ln.split(" b/", 1)[1])
                self.files.append(fp)
                continue
            if fp is None:
                continue
            if hunk is not None and (need_old > 0 or need_new > 0):
                op = ln[:1] if ln else " "
                if op in " +-":
                    hunk.lines.append((op, ln[1:]))
                    need_old -= op in " -"
                    need_new -= op in " +"
                    continue
            if ln.startswith("\\"):      # "\ No newline at end of file"
                if hunk is not None and hunk.lines and hunk.lines[-1][0] in " +":
                    fp.no_eol = True
                continue
            m = HUNK.match(ln)
            if m:
                self._close(hunk, need_old, need_new)
                old_len = int(m.group(2)) if m.group(2) is not None else 1
                new_len = int(m.group(4)) if m.group(4) is not None else 1
                hunk = Hunk(ln, int(m.group(1)), old_len, int(m.group(3)), new_len)
                fp.hunks.append(hunk)
                need_old, need_new = old_len, new_len
                continue
            m = INDEX.match(ln)
            if m and not fp.hunks:
                fp.old_blob, fp.new_blob = m.group(1), m.group(2)
            elif ln.startswith("new file mode"):
                fp.new_file = True
            elif ln.startswith("deleted file mode"):
                fp.deleted = True
        self._close(hunk, need_old, need_new)

    def _close(self, hunk, need_old, need_new):
        """A hunk cut short by blank context lines (a mail client's loss):
        restore them, as GNU patch assumes."""
        if hunk is not None and need_old > 0 and need_old == need_new:
            hunk.lines.extend([(" ", "")] * need_old)
            hunk.repaired = need_old
        elif hunk is not None and (need_old > 0 or need_new > 0):
            raise InputError("seed %s: hunk %s ends early" % (self.name, hunk.header))


def apply_hunks(pre, hunks, path="file"):
    """Apply HUNKS to the lines PRE; returns the post-image lines and sets
    each hunk's post region, + lines and - lines.  A hunk is looked for at
    its line number first, then ever farther away (as patch(1) does,
    without fuzz)."""
    out, pos = [], 0
    for h in hunks:
        old = [t for op, t in h.lines if op in " -"]
        want = h.old_start - 1 if h.old_len else h.old_start
        found = None
        for d in range(0, len(pre) + 1):
            for i in (want - d, want + d) if d else (want,):
                if pos <= i <= len(pre) - len(old) and pre[i:i + len(old)] == old:
                    found = i
                    break
            if found is not None:
                break
        if found is None:
            raise InputError("%s: hunk %s does not apply" % (path, h.header))
        out.extend(pre[pos:found])
        start, j = len(out), found
        h.plus, h.minus = [], []
        for op, t in h.lines:
            if op == " ":
                out.append(t)
                j += 1
            elif op == "+":
                h.plus.append(len(out))
                out.append(t)
            else:
                h.minus.append(j)
                j += 1
        h.post = (start, len(out))
        pos = found + len(old)
    out.extend(pre[pos:])
    return out


STRUCT_OPS = re.compile(r"^struct security_operations \{")


def apply_anchored(pre, hunk, path="file"):
    """Place HUNK's added lines after the end of `struct security_operations
    {...};` in PRE (its context is from another version of the file): after
    the line "};" and the lines of its leading context that follow "};"
    there, when they are the same.  Removed lines are not applied."""
    start = next((i for i, ln in enumerate(pre) if STRUCT_OPS.match(ln)), None)
    if start is None:
        raise InputError("%s: no struct security_operations to place %s after" % (path, hunk.header))
    end = next((i for i in range(start, len(pre)) if pre[i].startswith("};")), None)
    if end is None:
        raise InputError("%s: struct security_operations has no end" % path)
    lead = []
    for op, t in hunk.lines:
        if op != " ":
            break
        lead.append(t)
    after = lead[lead.index("};") + 1:] if "};" in lead else []
    at = end + 1
    if pre[at:at + len(after)] == after:
        at += len(after)
    added = [t for op, t in hunk.lines if op == "+"]
    hunk.plus = list(range(at, at + len(added)))
    hunk.minus = []
    hunk.post = (at, at + len(added))
    hunk.anchored = (end + 1, at + 1)
    return pre[:at] + added + pre[at:]


# --- the seeds and our series ------------------------------------------------

def load_seeds(sdir):
    """The seed patches of SDIR by v21 number; 1/7, 4/7, 5/7 required."""
    if not os.path.isdir(sdir):
        raise InputError("--seeds %s: not a directory" % sdir)
    seeds = {}
    for name in sorted(os.listdir(sdir)):
        if not name.endswith(".patch"):
            continue
        with open(os.path.join(sdir, name), encoding="utf-8", errors="surrogateescape") as f:
            p = Patch(name.split("-", 1)[0], f.read())
        if p.number and p.number not in seeds:
            seeds[p.number] = p
    missing = [n for n in REQUIRED if n not in seeds]
    if missing:
        raise InputError("--seeds %s: missing seed %s" % (sdir, ", ".join("v21 %d/7" % n for n in missing)))
    return seeds


class Base:
    """The pristine tree, read on demand."""

    def __init__(self, root):
        if not os.path.isfile(os.path.join(root, "include/linux/security.h")):
            raise InputError("--base %s: no include/linux/security.h (not a kernel tree)" % root)
        self.root = root

    def read(self, path):
        try:
            with open(os.path.join(self.root, path), "rb") as f:
                return decode(f.read())
        except (FileNotFoundError, NotADirectoryError):
            return None


def git(repo, *args, check=True):
    r = subprocess.run(["git", "-C", repo] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if check and r.returncode:
        raise InputError("git %s in %s: %s" % (" ".join(args[:2]), repo,
                                                " ".join(decode(r.stderr).strip().splitlines()[-1:])))
    return r


class Ours:
    """Our series: the first-parent history of REPO's HEAD."""

    def __init__(self, repo):
        if not os.path.isdir(repo):
            raise InputError("--ours %s: not a directory" % repo)
        r = git(repo, "log", "--first-parent", "--reverse", "--format=%H%x00%s", "HEAD", check=False)
        if r.returncode:
            raise InputError("--ours %s: not a git repository with a HEAD" % repo)
        self.repo = repo
        self.commits, self.subjects = [], []
        for ln in decode(r.stdout).splitlines():
            h, s = ln.split("\0", 1)
            self.commits.append(h)
            self.subjects.append(s)
        if len(self.commits) < 2:
            raise InputError("--ours %s: no step after the first commit" % repo)
        self._cache = {}

    def steps(self):
        return range(1, len(self.commits))

    def read(self, step, path):
        key = (step, path)
        if key not in self._cache:
            r = git(self.repo, "cat-file", "blob", "%s:%s" % (self.commits[step], path), check=False)
            self._cache[key] = decode(r.stdout) if r.returncode == 0 else None
        return self._cache[key]

    def changed(self, step):
        r = git(self.repo, "diff", "--name-only", "--no-renames", "-z",
                self.commits[step - 1], self.commits[step])
        return [p for p in decode(r.stdout).split("\0") if p]

    def root_blobs(self, paths):
        r = git(self.repo, "ls-tree", "-r", "-z", self.commits[0], "--", *paths)
        blobs = {}
        for ent in decode(r.stdout).split("\0"):
            if ent:
                meta, path = ent.split("\t", 1)
                blobs[path] = meta.split()[2]
        return blobs


def index_mismatch(fp, text, which):
    """None when FP's index line names the blob of TEXT (its "pre" or
    "post" image), else (the blob TEXT is, the one named)."""
    want = fp.old_blob if which == "pre" else fp.new_blob
    if want is None or set(want) == {"0"}:
        return None
    got = blob_id(encode(text))[:len(want)] if text is not None else "absent"
    return None if got == want else (got, want)


def seed_images(base, seeds):
    """The seeds' images in memory: a list of (patch, pre, post) where pre
    and post map path -> text (None: absent) for every file a seed so far
    touched (the files outside are the base's), and notes on what could
    only be applied in part."""
    state, images, notes = {}, [], []
    for n in sorted(seeds):
        p = seeds[n]
        for fp in p.files:
            if fp.path not in state:
                state[fp.path] = base.read(fp.path)
        pre = dict(state)
        bad = "seed %s (v21 %d/7) does not apply as its index lines say: %s is blob %s %s it, not %s"
        for fp in p.files:
            text = state[fp.path]
            wrong = index_mismatch(fp, text, "pre")
            # a hunk written for another version of the file (5/7's
            # lsm_hooks.h, after 2/7 and 3/7): placed by its anchor
            anchored = (wrong is not None and text is not None and len(fp.hunks) == 1
                        and "struct security_operations {" in fp.hunks[0].header)
            if wrong and not anchored:
                raise InputError(bad % (p.name, n, fp.path, wrong[0], "before", wrong[1]))
            lines = split_lines(text) or []
            if anchored:
                new = apply_anchored(lines, fp.hunks[0], "%s %s" % (p.name, fp.path))
                notes.append("%s %s: its context is from after v21 2/7 and 3/7 (index %s); its %d added "
                             "lines are placed after the end of `struct security_operations {...};` "
                             "(line %d of S%d's file) and compared by content, its context lines are not"
                             % (p.name, fp.path, fp.old_blob, len(fp.hunks[0].plus),
                                fp.hunks[0].anchored[0], n - 1))
            else:
                new = apply_hunks(lines, fp.hunks, "%s %s" % (p.name, fp.path))
            for h in fp.hunks:
                if h.repaired:
                    notes.append("%s %s: hunk %s lost %d trailing blank context line(s); restored"
                                 % (p.name, fp.path, h.short(), h.repaired))
            if fp.deleted:
                out = None
            else:
                out = "\n".join(new) + ("\n" if new and not fp.no_eol else "")
            wrong = index_mismatch(fp, out, "post")
            if wrong and not anchored:
                raise InputError(bad % (p.name, n, fp.path, wrong[0], "after", wrong[1]))
            state[fp.path] = out
        images.append((p, pre, dict(state)))
    return images, notes


# --- comparison --------------------------------------------------------------

class Diff:
    """One run of differing tokens between a seed post-image (x) and ours
    (y): compared as tokdiff.tokens() gives them, shown and matched by the
    reasons with a comment's whitespace kept as single spaces (xd, yd)."""

    def __init__(self, seed, path, kind, x, y, xd, yd, ctx, lines):
        self.seed, self.path, self.kind = seed, path, kind
        self.x, self.y = x, y               # differing tokens, seed and ours
        self.xd, self.yd = xd, yd           # the same as shown
        self.ctx = ctx                      # (before, after): the seed's tokens around, as shown
        self.lines = lines                  # [lo, hi) in the seed post-image
        self.hunk = None                    # the seed hunk, None: outside them
        self.carried = None                 # the seed it is carried from
        self.step = None                    # our step, when not the matching one
        self.reason = None                  # (class, reason) from the TSV

    def key(self, n=3):
        """What must be the same in the previous step's post-images for
        this difference to be carried: the tokens and N of context."""
        return tuple(self.ctx[0][-n:]), tuple(self.x), tuple(self.y), tuple(self.ctx[1][:n])

    def texts(self):
        return " ".join(self.xd), " ".join(self.yd)

    def shown(self, n=4, most=12, width=200):
        """A few tokens around the difference: [-seed-]{+ours+}."""
        if len(self.xd) == 1 and len(self.yd) == 1 and self.kind == "comment":
            mid = word_diff(self.xd[0].split(), self.yd[0].split())
        else:
            mid = ""
            if self.xd:
                mid += "[-%s-]" % cut(self.xd, most)
            if self.yd:
                mid += "{+%s+}" % cut(self.yd, most)
        before = cut(self.ctx[0][-n:], n, 30)
        after = cut(self.ctx[1][:n], n, 30)
        text = " ".join(s for s in (before, mid, after) if s)
        return text if len(text) <= width else text[:width - 1] + "…"


def cut(toks, most, width=60):
    """TOKS joined, at most MOST of them and each at most WIDTH characters."""
    toks = [t if len(t) <= width else t[:width - 1] + "…" for t in toks]
    s = " ".join(toks[:most])
    return s + (" …(%d tokens)" % len(toks) if len(toks) > most else "")


def word_diff(a, b, n=3):
    """The words of A and B (two versions of a comment) where they differ,
    N words of context: "... w [-old-]{+new+} w ..."."""
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            words = a[i1:i2]
            if len(words) > 2 * n:
                words = ([] if i1 == 0 else words[:n]) + ["…"] + ([] if i2 == len(a) else words[-n:])
            out.extend(words)
            continue
        if i2 > i1:
            out.append("[-%s-]" % " ".join(a[i1:i2]))
        if j2 > j1:
            out.append("{+%s+}" % " ".join(b[j1:j2]))
    return " ".join(out)


def align(a, b):
    """Line opcodes of A and B compared without whitespace (equal prefix
    and suffix cut first: most files differ in a few places)."""
    na = [tokdiff.WS.sub("", ln) for ln in a]
    nb = [tokdiff.WS.sub("", ln) for ln in b]
    p = 0
    while p < len(na) and p < len(nb) and na[p] == nb[p]:
        p += 1
    s = 0
    while s < len(na) - p and s < len(nb) - p and na[-1 - s] == nb[-1 - s]:
        s += 1
    ops = []
    if p:
        ops.append(("equal", 0, p, 0, p))
    sm = difflib.SequenceMatcher(None, na[p:len(na) - s], nb[p:len(nb) - s], autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        ops.append((tag, i1 + p, i2 + p, j1 + p, j2 + p))
    if s:
        ops.append(("equal", len(na) - s, len(na), len(nb) - s, len(nb)))
    return ops


def compare_file(seed, path, a, b):
    """The differences between a seed post-image A and ours B (lines;
    None: absent), and the seed lines whose whitespace alone differs."""
    a, b = a or [], b or []
    ta, tb = Tokens(a), Tokens(b)
    diffs, ws = [], []
    for tag, i1, i2, j1, j2 in align(a, b):
        if tag == "equal":
            ws.extend(i1 + k for k in range(i2 - i1) if a[i1 + k] != b[j1 + k])
            continue
        x1, x2 = ta.span(i1, i2)
        y1, y2 = tb.span(j1, j2)
        xs, ys = ta.toks[x1:x2], tb.toks[y1:y2]
        if xs == ys:
            ws.extend(range(i1, i2) if i2 > i1 else [max(i1 - 1, 0)])
            continue
        if len(xs) * len(ys) > 4000000:
            ops = [("replace", 0, len(xs), 0, len(ys))]
        else:
            ops = difflib.SequenceMatcher(None, xs, ys, autojunk=False).get_opcodes()
        for t, u1, u2, v1, v2 in ops:
            if t == "equal":
                continue
            x, y = xs[u1:u2], ys[v1:v2]
            kind = "comment" if all(is_comment(t) for t in x + y) else "diff"
            gx1, gx2 = x1 + u1, x1 + u2
            if gx2 > gx1:
                lines = (ta.first[gx1], ta.last[gx2 - 1] + 1)
            else:
                lo = ta.last[gx1 - 1] if gx1 > 0 else 0
                hi = ta.first[gx1] + 1 if gx1 < len(ta.toks) else len(a)
                lines = (lo, max(hi, lo + 1))
            d = Diff(seed, path, kind, x, y, ta.disp[gx1:gx2], tb.disp[y1 + v1:y1 + v2],
                     (ta.disp[max(0, gx1 - 8):gx1], ta.disp[gx2:gx2 + 8]), lines)
            d.xrange = (gx1, gx2)
            diffs.append(d)
    return diffs, set(ws), ta


def overlaps(lines, region):
    lo, hi = lines
    s, e = region
    e = max(e, s + 1)
    return lo < e and s < hi


# module initializers: (hook, function) pairs whatever the syntax
INIT = re.compile(r"\bstruct\s+(?:security_operations|security_hook_list)\s+\w+\s*(?:\[\s*\])?[^=;{()]*=\s*\{")
PAIR_MACRO = re.compile(r"LSM_HOOK_INIT\s*\(\s*(\w+)\s*,\s*([^()]*?)\s*\)")
PAIR_DESIG = re.compile(r"(?<![\w)\]])\.\s*(\w+)\s*=\s*([^,{}]+?)\s*(?=[,}]|$)")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
PREPROC = re.compile(r"^[ \t]*#.*$", re.M)


def blank(m):
    return re.sub(r"[^\n]", " ", m.group())


def initializers(text):
    """The spans (offsets) of the module hook initializers of TEXT and the
    text with comments blanked (same offsets)."""
    clean = COMMENT.sub(blank, text or "")
    spans = []
    for m in INIT.finditer(clean):
        depth, i = 0, m.end() - 1
        while i < len(clean):
            if clean[i] == "{":
                depth += 1
            elif clean[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        spans.append((m.start(), i + 1))
    return spans, clean


def line_pairs(text):
    """The (hook, value) pairs written in TEXT (a line or a body)."""
    text = PREPROC.sub(blank, COMMENT.sub(blank, text))
    pairs = [(h, tokdiff.WS.sub("", v)) for h, v in PAIR_MACRO.findall(text)]
    if not pairs:
        pairs = [(h, tokdiff.WS.sub("", v)) for h, v in PAIR_DESIG.findall(text)]
    return pairs


def init_pairs(text, lines=None):
    """The pairs of the initializers of TEXT (those touching the line range
    LINES when given), in order."""
    spans, clean = initializers(text)
    pairs = []
    for s, e in spans:
        if lines is not None:
            ls, le = clean.count("\n", 0, s), clean.count("\n", 0, e) + 1
            if not overlaps((ls, le), lines):
                continue
        pairs.extend(line_pairs(clean[s:e].split("{", 1)[1]))
    return pairs


def init_tokens(text):
    spans, clean = initializers(text)
    return [t for s, e in spans for t, _ in tokdiff.tokens(clean[s:e])]


class HunkResult:
    def __init__(self, path, hunk):
        self.path, self.hunk = path, hunk
        self.cls = "bytes"
        self.step = None        # our step of a pairs comparison
        self.carried = 0
        self.tokens = self.same = 0


class SeedResult:
    def __init__(self, patch, step):
        self.patch, self.step = patch, step
        self.files = []         # (path, [HunkResult])
        self.outside = collections.OrderedDict()   # path -> count
        self.diffs = []
        self.notes = []


def compare_seed(patch, pre, post, base, ours, step, prev_step, later_steps, prev_seed=None):
    """Compare one seed (its PRE and POST images) with our STEP (None: no
    such step; ours is then PREV_STEP's tree, unchanged).  PREV_SEED names
    the seed before (where a carried difference comes from)."""
    res = SeedResult(patch, step)
    o_post = step if step is not None else prev_step
    o_pre = step - 1 if step is not None else prev_step
    paths = [fp.path for fp in patch.files]
    if step is not None:
        paths += [p for p in ours.changed(step) if p not in paths]
    hunks_of = {fp.path: fp.hunks for fp in patch.files}
    for path in paths:
        s_pre = pre[path] if path in pre else base(path)
        s_post = post[path] if path in post else s_pre
        a = split_lines(s_post)
        b = split_lines(ours.read(o_post, path))
        diffs, ws, ta = compare_file(patch.name, path, a, b)
        if diffs:
            pdiffs, _, _ = compare_file(patch.name, path, split_lines(s_pre), split_lines(ours.read(o_pre, path)))
            seen = collections.Counter(d.key() for d in pdiffs)
            for d in diffs:
                if seen[d.key()]:
                    seen[d.key()] -= 1
                    d.carried = prev_seed or "the base"
        hunks = hunks_of.get(path, [])
        results = []
        ta_pre = None
        for h in hunks:
            hr = HunkResult(path, h)
            mine = [d for d in diffs if d.hunk is None and overlaps(d.lines, h.post)]
            for d in mine:
                d.hunk = h
            live = [d for d in mine if not d.carried]
            hr.carried = len(mine) - len(live)
            if any(d.kind == "diff" for d in live):
                hr.cls = "diff"
            elif live:
                hr.cls = "comment"
            elif any(h.post[0] <= ln < max(h.post[1], h.post[0] + 1) for ln in ws):
                hr.cls = "ws"
            if h.uses_hook_init() and hr.cls in ("comment", "diff") and later_steps:
                swapped = compare_pairs(res, hr, s_pre, s_post, ours, o_pre, later_steps, path)
                if swapped is not None:
                    diffs = [d for d in diffs if d not in mine] + swapped
                    live = swapped
            # tokens of the + and - lines, and how many ours has too
            if hr.step is None:
                marked = set()
                for d in live:
                    marked.update(range(*d.xrange))
                plus = ta.on_lines(set(h.plus))
                hr.tokens += len(plus)
                hr.same += sum(1 for i in plus if i not in marked)
                if ta_pre is None:
                    ta_pre = Tokens(split_lines(s_pre) or [])
                minus = [ta_pre.toks[i] for i in ta_pre.on_lines(set(h.minus))]
                kept = collections.Counter(t for d in live for t in d.y)
                hr.tokens += len(minus)
                hr.same += len(minus) - sum((collections.Counter(minus) & kept).values())
            results.append(hr)
        for d in diffs:
            if d.hunk is None and not d.carried:
                res.outside[path] = res.outside.get(path, 0) + 1
        res.diffs.extend(diffs)
        if hunks:
            res.files.append((path, results))
    return res


def compare_pairs(res, hr, s_pre, s_post, ours, o_pre, later_steps, path):
    """HR's hunk rewrites a module initializer: compare its (hook, function)
    pairs with ours in the first of LATER_STEPS that changes the file's
    initializers.  Returns the differences replacing the token ones, None
    when no step of ours changes them (the token comparison stands)."""
    h = hr.hunk
    before = init_tokens(ours.read(o_pre, path))
    step = next((s for s in later_steps if init_tokens(ours.read(s, path)) != before), None)
    if step is None:
        res.notes.append("`%s` %s: no step of ours changes the module's initializer; compared in tokens"
                         % (path, h.short()))
        return None
    seed = init_pairs(s_post, h.post)
    mine = init_pairs(ours.read(step, path))
    hr.step, hr.cls = step, "pairs"
    missing = [p for p in seed if p not in mine]
    extra = [p for p in mine if p not in seed]
    res.notes.append("`%s` %s: the initializer's %d (hook, function) pairs compared with our step %d "
                     "\"%s\": %d there, %d missing, %d extra%s"
                     % (path, h.short(), len(seed), step, ours.subjects[step], len(seed) - len(missing),
                        len(missing), len(extra),
                        ", in another order" if not missing and not extra and seed != mine else ""))
    out = []
    for p in missing:
        out.append(pair_diff(res.patch.name, path, h, (p,), (), step))
    for p in extra:
        out.append(pair_diff(res.patch.name, path, h, (), (p,), step))
    if out:
        hr.cls = "diff"
    # tokens of the + and - lines: a line counts when its pair is in ours
    pre_lines = split_lines(s_pre) or []
    post_lines = split_lines(s_post) or []
    have = set(mine)
    for lines, idx in ((post_lines, h.plus), (pre_lines, h.minus)):
        for i in idx:
            n = sum(1 for _ in tokdiff.tokens(lines[i]))
            hr.tokens += n
            if all(p in have for p in line_pairs(lines[i])):
                hr.same += n
    return out


def pair_text(p):
    return "(%s, %s)" % p


def pair_diff(seed, path, hunk, x, y, step):
    x, y = [pair_text(p) for p in x], [pair_text(p) for p in y]
    d = Diff(seed, path, "diff", x, y, x, y, ([], []), hunk.post)
    d.hunk, d.step, d.xrange = hunk, step, (0, 0)
    return d


# --- reasons -----------------------------------------------------------------

def load_reasons(path):
    """The rows of the reasons TSV: (seed, glob, regex, class, reason, line)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InputError("--reasons %s: %s" % (path, e.strerror))
    rows = []
    for n, ln in enumerate(text.split("\n"), 1):
        if not ln.strip() or ln.startswith("#"):
            continue
        cols = ln.split("\t")
        if len(cols) != 5:
            raise InputError("%s:%d: %d columns, want 5 (seed, file glob, regex, class, reason)"
                             % (path, n, len(cols)))
        seed, glob, rx, cls, why = cols
        if cls not in ("choice", "defect"):
            raise InputError("%s:%d: class %r, want choice or defect" % (path, n, cls))
        try:
            rx = re.compile(rx)
        except re.error as e:
            raise InputError("%s:%d: bad regex: %s" % (path, n, e))
        rows.append((seed, glob, rx, cls, why, n))
    return rows


def explain(diff, rows, used):
    """The first row fitting DIFF: its (class, reason), or None."""
    for seed, glob, rx, cls, why, n in rows:
        if seed not in ("*", diff.seed):
            continue
        if not fnmatch.fnmatchcase(diff.path, glob):
            continue
        sx, sy = diff.texts()
        if rx.search(sx) or rx.search(sy):
            used.add(n)
            return cls, why
    return None


# --- report ------------------------------------------------------------------

def md_cell(s):
    return s.replace("\\", "\\\\").replace("|", "\\|")


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def pct(same, total):
    """SAME of TOTAL as "N (P %)", P rounded down: 100 % only when all."""
    return "%d (%.1f %%)" % (same, (1000 * same // total) / 10.0) if total else "0"


COLS = ["hunks", "identical bytes", "whitespace only", "only comments differ", "different",
        "pairs equal (step)", "carried", "seed tokens +/-", "identical in ours"]


def counts(hrs):
    c = collections.Counter(hr.cls for hr in hrs)
    steps = sorted({hr.step for hr in hrs if hr.cls == "pairs"})
    pairs = "%d" % c["pairs"] + (" (step %s)" % ", ".join(str(s) for s in steps) if steps else "")
    tok = sum(hr.tokens for hr in hrs)
    same = sum(hr.same for hr in hrs)
    return [len(hrs), c["bytes"], c["ws"], c["comment"], c["diff"], pairs,
            sum(hr.carried for hr in hrs), tok, pct(same, tok)]


def report(args, ours, seeds, mapping, results, notes, used, rows):
    out = ["# v21 seeds compared with our series", ""]
    out.append("base `%s`, seeds `%s`, ours `%s` (HEAD %s, %d steps)"
               % (args.base, args.seeds, args.ours, ours.commits[-1][:12], len(ours.commits) - 1))
    out += ["", "## Steps", ""]
    srows = []
    for s in ours.steps():
        subj = ours.subjects[s]
        seed = next((p for p, st in mapping.items() if st == s), None)
        if seed is not None:
            v21 = "%d/7 (seed %s)" % (seed.number, seed.name)
        else:
            v21 = "%s (no seed: not compared)" % UNSEEDED.get(normalise_subject(subj), "?")
        srows.append([s, ours.commits[s][:12], md_cell(subj), v21])
    out += table(["our step", "commit", "subject", "v21"], srows)
    out += ["", "## Not compared", ""]
    total = max(p.total for p in seeds.values())
    for n in range(1, total + 1):
        if n not in seeds:
            out.append("- v21 %d/7: not among the seeds (%s)" % (n, ABSENT.get(n, "?")))
    out += ["- " + n for n in notes]
    for r in results:
        if r.step is None:
            out.append("- %s (v21 %d/7 \"%s\"): no step of ours has that subject; compared with our "
                       "tree unchanged" % (r.patch.name, r.patch.number,
                                           md_cell(normalise_subject_keep(r.patch.subject))))
    for r in results:
        where = ("our step %d \"%s\"" % (r.step, md_cell(ours.subjects[r.step]))
                 if r.step is not None else "no step of ours")
        out += ["", "## %s = v21 %d/7 \"%s\" vs %s" % (r.patch.name, r.patch.number,
                                                     md_cell(normalise_subject_keep(r.patch.subject)), where), ""]
        trows = [["`%s`" % p] + counts(hrs) for p, hrs in r.files]
        allh = [hr for _, hrs in r.files for hr in hrs]
        trows.append(["**total**"] + counts(allh))
        out += table(["file"] + COLS, trows)
        if r.outside:
            out += ["", "Ours differs outside the seed's hunks: " +
                    ", ".join("`%s` (%d)" % kv for kv in r.outside.items()) + " (listed below)."]
        if r.notes:
            out.append("")
            out += ["- " + md_cell(n) for n in r.notes]
    out += ["", "## Totals", ""]
    trows = []
    for r in results:
        allh = [hr for _, hrs in r.files for hr in hrs]
        trows.append(["%s (%d/7)" % (r.patch.name, r.patch.number), r.step or "-"] + counts(allh)
                     + [sum(r.outside.values())])
    out += table(["seed", "our step"] + COLS + ["differences outside hunks"], trows)
    out += ["", "## Differences", ""]
    drows, crows, tally = [], [], collections.Counter()
    for r in results:
        for d in r.diffs:
            if d.carried:
                tally["carried"] += 1
                crows.append([d.seed, "`%s`" % d.path, d.hunk.short() if d.hunk else "(outside the seed's hunks)",
                              CLASS_NAMES[d.kind], "`%s`" % md_cell(d.shown(width=100)), d.carried])
                continue
            d.reason = explain(d, rows, used)
            cls = d.reason[0] if d.reason else "unexplained"
            tally[cls] += 1
            why = "%s: %s" % d.reason if d.reason else "**unexplained**"
            hunk = d.hunk.short() if d.hunk else "(outside the seed's hunks)"
            if d.step is not None and d.step != r.step:
                hunk += " in our step %d" % d.step
            drows.append([len(drows) + 1, d.seed, "`%s`" % d.path, hunk, CLASS_NAMES[d.kind],
                          "`%s`" % md_cell(d.shown()), md_cell(why)])
    if drows:
        out += table(["#", "seed", "file", "seed hunk", "kind", "[-seed-]{+ours+}", "reason"], drows)
    else:
        out.append("None.")
    if crows:
        out += ["", "Carried from an earlier patch (the same tokens differ in the previous step's "
                "post-images; not counted again):", ""]
        out += table(["seed", "file", "seed hunk", "kind", "[-seed-]{+ours+}", "already in"], crows)
    unused = [n for *_, n in rows if n not in used]
    if unused:
        out += ["", "Reasons rows that matched nothing: line %s of `%s`."
                % (", ".join(map(str, unused)), args.reasons)]
    summary = ("%d difference(s): %d choice, %d defect, %d unexplained; %d carried from an earlier "
               "patch (not counted)" % (sum(tally[k] for k in ("choice", "defect", "unexplained")),
                                        tally["choice"], tally["defect"], tally["unexplained"],
                                        tally["carried"]))
    out += ["", summary]
    return "\n".join(out) + "\n", tally


def normalise_subject_keep(s):
    """The subject without its "[PATCH n/7 v21]" prefix, case kept."""
    return re.sub(r"^(\[[^]]*\]\s*)+", "", s.strip())


# --- main --------------------------------------------------------------------

def run(args):
    if args.md is not None:
        d = os.path.dirname(os.path.abspath(args.md))
        if not os.path.isdir(d):
            raise InputError("--md %s: no directory %s" % (args.md, d))
    rows = load_reasons(args.reasons)
    seeds = load_seeds(args.seeds)
    base = Base(args.base)
    ours = Ours(args.ours)
    # the base is v21's: 1/7's pre-image blobs, checked first
    for fp in seeds[1].files:
        wrong = index_mismatch(fp, base.read(fp.path), "pre")
        if wrong:
            raise InputError("--base %s is not v21's base: %s is blob %s, v21 1/7 (seed %s) needs %s"
                             % (args.base, fp.path, wrong[0], seeds[1].name, wrong[1]))
    images, notes = seed_images(base, seeds)
    # our first commit is the base, on every file the seeds or our steps touch
    paths = sorted({fp.path for p in seeds.values() for fp in p.files}
                   | {p for s in ours.steps() for p in ours.changed(s)})
    blobs = ours.root_blobs(paths)
    for path in paths:
        text = base.read(path)
        want = blob_id(encode(text)) if text is not None else None
        if blobs.get(path) != want:
            raise InputError("--ours %s: its first commit is not --base: %s differs" % (args.ours, path))
    # steps by subject
    by_subject = {}
    for s in ours.steps():
        by_subject.setdefault(normalise_subject(ours.subjects[s]), s)
    mapping = {}
    for p, _, _ in images:
        mapping[p] = by_subject.get(normalise_subject(p.subject))
    results, prev, prev_seed = [], 0, None
    for p, pre, post in images:
        step = mapping[p]
        later = list(range(step if step is not None else prev + 1, len(ours.commits)))
        r = compare_seed(p, pre, post, base.read, ours, step, prev, later, prev_seed)
        results.append(r)
        prev_seed = p.name
        if step is not None:
            prev = step
    used = set()
    text, tally = report(args, ours, seeds, mapping, results, notes, used, rows)
    sys.stdout.write(text)
    if args.md is not None:
        tmp = args.md + ".tmp%d" % os.getpid()
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, args.md)
    return EXIT_TODO if tally["unexplained"] or tally["defect"] else EXIT_OK


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("v21cmp.py: %s\n" % message)
        sys.exit(EXIT_USAGE)


def main(argv):
    ap = Parser(prog="v21cmp.py", description="Compare a 4.0 series with the v21 seeds.")
    ap.add_argument("--base", required=True, metavar="TREE", help="the pristine 4.0 tree (a directory)")
    ap.add_argument("--seeds", required=True, metavar="DIR", help="the seed patches")
    ap.add_argument("--ours", required=True, metavar="REPO", help="the git repository of our series")
    ap.add_argument("--reasons", default=DEFAULT_REASONS, metavar="FILE", help="the reasons TSV")
    ap.add_argument("--md", metavar="FILE", help="write the report there too")
    args = ap.parse_args(argv[1:])
    try:
        return run(args)
    except InputError as e:
        sys.stderr.write("v21cmp.py: %s\n" % e)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main(sys.argv))
