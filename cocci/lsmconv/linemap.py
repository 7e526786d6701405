# SPDX-License-Identifier: GPL-2.0
"""Line mapping between versions of a file, linear in its size.

A rule reports a line of the file as that rule saw it; the report gives the
line in the result.  opcodes(a, b) aligns two versions with GNU diff
--minimal (O((N+M)D): near-linear for the few changes a rule makes;
difflib's SequenceMatcher is quadratic on files with many equal lines) and returns
difflib-style (tag, i1, i2, j1, j2) opcodes covering both files.
Map(ops).forward(i) maps a 0-based line through them: a line of an equal run
keeps its offset, a line of a changed run goes to the same offset in the
new run (counted among non-blank lines when Map has both versions' lines),
clamped to its last line.

locate(part, whole) finds where a fragment (the single top-level element
spatch re-parses after a transformation, see lsmconv.driver) lies in a file.
"""
import bisect
import difflib
import os
import re
import subprocess
import tempfile

_HUNK = re.compile(r"^(\d+)(?:,(\d+))?([acd])(\d+)(?:,(\d+))?$")


class DiffError(Exception):
    pass


def _write(path, lines):
    with open(path, "wb") as f:
        f.write(("\n".join(lines) + "\n").encode("utf-8", "surrogateescape"))


def opcodes(a, b, tmpdir=None, runner=None):
    """difflib-style opcodes from list a to list b (lists of str lines)."""
    if a == b:
        return [("equal", 0, len(a), 0, len(b))]
    d = tempfile.mkdtemp(prefix="linemap.", dir=tmpdir)
    try:
        pa, pb = os.path.join(d, "a"), os.path.join(d, "b")
        _write(pa, a)
        _write(pb, b)
        # --minimal: without it GNU diff's heuristic may align a whole
        # rewritten initializer as one short change and one long delete
        # (4.0's apparmor_ops: every entry then mapped to the list's end)
        cmd = ["diff", "--minimal", "--", pa, pb]
        env = dict(os.environ, LC_ALL="C")
        if runner:
            rc, out = runner(cmd, env)
        else:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            rc, out = p.returncode, p.stdout
    finally:
        for f in ("a", "b"):
            try:
                os.unlink(os.path.join(d, f))
            except OSError:
                pass
        os.rmdir(d)
    if rc not in (0, 1):
        raise DiffError("diff failed (exit %d)" % rc)
    ops = []
    ia = ib = 0
    for text in out.split(b"\n"):
        m = _HUNK.match(text.decode("ascii", "replace"))
        if not m:
            continue
        l1, l2, tag, r1, r2 = m.groups()
        l1, r1 = int(l1), int(r1)
        l2 = int(l2) if l2 else l1
        r2 = int(r2) if r2 else r1
        if tag == "a":
            i1 = i2 = l1
            j1, j2 = r1 - 1, r2
        elif tag == "d":
            i1, i2 = l1 - 1, l2
            j1 = j2 = r1
        else:
            i1, i2, j1, j2 = l1 - 1, l2, r1 - 1, r2
        if i1 > ia:
            ops.append(("equal", ia, i1, ib, ib + i1 - ia))
        ops.append(({"a": "insert", "d": "delete", "c": "replace"}[tag], i1, i2, j1, j2))
        ia, ib = i2, j2
    if ia < len(a) or ib < len(b):
        ops.append(("equal", ia, len(a), ib, len(b)))
    return ops


class Map:
    """A line map from opcodes: Map(ops).forward(i).  Given the two
    versions' lines (a, b), a non-blank line of a changed run goes to the
    same offset among the new run's non-blank lines: blank lines a rule
    removed or added around a statement it rewrote (`int ret;` and the
    blank line after it, gone with `ret = register_security(...)`) do not
    push the line onto the next statement."""

    def __init__(self, ops, a=None, b=None):
        # the ops that hold old lines (an insert holds none), in order
        self.ops = [op for op in ops if op[2] > op[1]]
        self.starts = [op[1] for op in self.ops]
        self.a, self.b = a, b

    def forward(self, i):
        """0-based line i of the old version -> 0-based line of the new one
        (a line past the end stays where it is)."""
        k = bisect.bisect_right(self.starts, i) - 1
        if k < 0 or i >= self.ops[k][2]:
            return i
        tag, i1, _i2, j1, j2 = self.ops[k]
        if tag == "equal":
            return j1 + (i - i1)
        if self.a is not None and self.a[i].strip():
            new = [j for j in range(j1, j2) if self.b[j].strip()]
            if new:
                n = sum(1 for k in range(i1, i) if self.a[k].strip())
                return new[min(n, len(new) - 1)]
        return j1 + min(i - i1, max(j2 - j1 - 1, 0))


def locate(part, whole):
    """Where the lines `part` (a fragment, possibly changed a little since)
    lie in `whole`: (opcodes from `part` to `whole`, number of lines equal
    at the best offset), or None when no line of the fragment is found.  Cost: linear in len(whole)
    plus a difflib run on a window the size of the fragment."""
    where = {}
    for n, text in enumerate(whole):
        where.setdefault(text, []).append(n)
    # anchors: the fragment's non-blank lines that are rarest in whole
    cands = sorted((len(where[t]), n) for n, t in enumerate(part)
                   if t.strip() and t in where)
    if not cands:
        return None
    # candidate offsets from the three rarest anchors, the best is the one
    # with the most equal lines
    offsets = set()
    for _, n in cands[:3]:
        offsets.update(w - n for w in where[part[n]][:256])

    def score(o):
        return sum(1 for n, t in enumerate(part) if 0 <= o + n < len(whole) and whole[o + n] == t)

    off = max(sorted(offsets), key=lambda o: (score(o), -o))
    lo = max(0, off - len(part))
    hi = min(len(whole), off + 2 * len(part) + 16)
    sm = difflib.SequenceMatcher(None, part, whole[lo:hi], autojunk=False)
    ops = [(tag, i1, i2, j1 + lo, j2 + lo) for tag, i1, i2, j1, j2 in sm.get_opcodes()]
    return ops, score(off)
