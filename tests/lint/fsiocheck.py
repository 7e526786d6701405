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
so with a `# work` comment (on that line or alone on the line before).
Each shell command with an output-directory option calls guard_out (and
series.sh lsmconv.fsio check-paths) or is listed as exempt with its reason
(SHELL_ENTRIES, SHELL_EXEMPT).  Prints FILE:LINE: why for each violation;
exit 1 when there is one, 0 otherwise.
"""
import os
import re
import subprocess
import sys

ENTRIES = ("cocci/lsmconv/driver.py", "cocci/lsmconv/port.py")

# Shell commands with an output-directory option (`--out)`, `--work)`,
# `--series)`): each calls guard_out (scripts/lib.sh: the marker rule, the
# refusal of /, $HOME and the repository) and, where it also takes inputs
# that an output could be, lsmconv.fsio check-paths.  (script, what it
# must call)
SHELL_ENTRIES = (
    ("scripts/series.sh", ("guard_out ", "lsmconv.fsio check-paths")),
    ("cocci/rewind/rewind.sh", ("guard_out ",)),
    ("scripts/v21.sh", ("guard_out ",)),
    ("verify/pipeline.sh", ("guard_out ",)),
)
# Scripts with such an option that are not user commands' outputs, and why.
SHELL_EXEMPT = {
    "qemu-boot/build-initramfs.sh": "the harness's one cpio, written to a temporary and renamed",
    "qemu-boot/build-selftests.sh": "the harness's selftest build directory under build/",
    "verify/hookcost/hookcost.sh": "make bench's work directory under build/bench",
    "verify/traces.sh": "make verify's trace directory, given by pipeline.sh (guarded there)",
    "verify/port.sh": "make port's --work: lock_dir, and removed only when this run made it "
                      "(docs/porting.md)",
}
OUT_OPTION = re.compile(r"^\s*--(out|work|series)\)", re.M)


def check_shell(root):
    bad = []
    listed = dict(SHELL_ENTRIES)
    files = subprocess.run(["git", "-C", root, "ls-files", "*.sh"], capture_output=True,
                           text=True).stdout.split()
    for rel in files:
        if rel.startswith("tests/"):
            continue
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text = f.read()
        if not OUT_OPTION.search(text) or rel in SHELL_EXEMPT:
            continue
        if rel not in listed:
            bad.append("%s:0: takes an output directory but is neither in SHELL_ENTRIES nor "
                       "in SHELL_EXEMPT (tests/lint/fsiocheck.py)" % rel)
            continue
        code = "\n".join(l.split("#", 1)[0] for l in text.split("\n"))
        for call in listed[rel]:
            if call not in code:
                bad.append("%s:0: never calls %s: its outputs are not guarded" % (rel, call.strip()))
    return bad
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
    bad = check(argv[1]) + check_shell(argv[1])
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
