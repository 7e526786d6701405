#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every Python command entry goes through the one output-safety layer
(lsmconv.fsio, docs/CONTRACTS.md "Output safety").

    tests/lint/fsiocheck.py ROOT

For each entry (cocci/lsmconv/driver.py: convert.sh file|tree;
cocci/lsmconv/port.py: convert.sh port): it calls fsio.check_paths() (in
code, not in a comment), and it opens no file for writing itself (open()
with a w, a, x or + mode, os.open() with O_WRONLY, O_RDWR or O_CREAT)
except a file of lsmconv's own work directory or cache, whose line says
so with a `# work` comment (on that line or alone on the line before).  Prints FILE:LINE: why for each violation;
exit 1 when there is one, 0 otherwise.
"""
import os
import re
import sys

ENTRIES = ("cocci/lsmconv/driver.py", "cocci/lsmconv/port.py")
WRITE_OPEN = re.compile(r"""\bopen\(.*?["'][rbt]*[wax+][rbt+]*["']""")
WRITE_OSOPEN = re.compile(r"\bos\.open\(.*\bO_(WRONLY|RDWR|CREAT)\b")
CALL = re.compile(r"\bfsio\.check_paths\(")


def check(root):
    bad = []
    for rel in ENTRIES:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            lines = f.read().split("\n")
        calls = 0
        for n, line in enumerate(lines, 1):
            code = line.split("#", 1)[0]
            if CALL.search(code):
                calls += 1
            marked = "# work" in line or (n > 1 and lines[n - 2].strip().startswith("# work"))
            if (WRITE_OPEN.search(code) or WRITE_OSOPEN.search(code)) and not marked:
                bad.append("%s:%d: opens a file for writing outside lsmconv.fsio (an output "
                           "goes through fsio; a work file says `# work`): %s"
                           % (rel, n, line.strip()))
        if not calls:
            bad.append("%s:0: never calls fsio.check_paths(): its outputs are not checked "
                       "against its inputs" % rel)
    return bad


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: tests/lint/fsiocheck.py ROOT\n")
        return 2
    bad = check(argv[1])
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
