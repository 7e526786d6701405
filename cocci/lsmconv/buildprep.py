# SPDX-License-Identifier: GPL-2.0
"""make port's build step: what the module's directory of the scratch tree
needs besides its .c/.h files, so that the module is always compiled and
every error is seen (issue 27).

    python3 -m lsmconv.buildprep --target TREE --module DIR --name NAME [--from DIR]

DIR is security/NAME of make port's scratch copy of TREE (its Makefile and
Kconfig written by verify/port.sh); --from the port's output.
  - the files of --from that the module includes and that are not .c/.h
    (`#include "hooks.lst"`, lsmconv.headers.included_files) are copied in;
  - every header the target does not have (lsmconv.headers.missing: the
    report's include todos) gets an empty stub in DIR/lsmconv-stubs, which
    DIR/Makefile searches last (`-idirafter`): gcc stops at no missing
    header, so every other error is seen;
  - the module's own configuration options used as conditions
    (lsmconv.modconfig: the report's config todos) are appended to
    DIR/Kconfig, on with the module's option (the CONFIG_ symbol of the
    `obj-$(CONFIG_...)` line of DIR/Makefile), so the code they guard is
    compiled.
A file is rewritten only when its content changes (through a new inode: the
scratch tree is hard-linked to TREE); a rerun without the need removes what
an earlier one added.  Prints one line per stub, `stub<TAB>header<TAB>
FILE:LINE`, and per option, `config<TAB>SYMBOL<TAB>FILE:LINE`.  Exit 0, 2
usage or input error, 3 when writing failed (lsmconv.exits).
"""
import argparse
import os
import re
import shutil
import sys

from lsmconv import exits, headers, modconfig
from lsmconv.fsio import read_text

STUBS = "lsmconv-stubs"
MARK = "lsmconv make port:"


def _write(path, data):
    """Write data to path through a new inode, only when it differs."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    tmp = "%s.lsmconv-tmp.%d" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(data)
    os.replace(tmp, path)


def _strip_ours(text):
    """text without the lines an earlier run appended (from the first line
    carrying MARK on)."""
    lines = text.split("\n")
    for i, l in enumerate(lines):
        if MARK in l:
            lines = lines[:i]
            while lines and lines[-1] == "":
                lines.pop()
            return "\n".join(lines) + "\n"
    return text


def prep(target, moddir, name, frm=None):
    """See the module docstring; returns the printed lines."""
    out = []
    if frm and os.path.isdir(frm):
        rels = [r for r in os.listdir(frm) if r.endswith((".c", ".h"))]
        for rel in headers.included_files(frm, rels):
            dst = os.path.join(moddir, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            _write(dst, read_text(os.path.join(frm, rel)))
    rels = []
    for d, dirs, fs in os.walk(moddir):
        dirs[:] = sorted(x for x in dirs if x != STUBS and not x.startswith("."))
        rels += [os.path.relpath(os.path.join(d, f), moddir) for f in sorted(fs)
                 if f.endswith((".c", ".h"))]
    texts = {rel: read_text(os.path.join(moddir, rel))
             for rel in rels + headers.included_files(moddir, rels)}

    # missing headers: stubs, searched last
    want = {}
    for rel, idx, h in headers.missing(target, texts, name):
        want.setdefault(os.path.normpath(h), []).append("%s:%d" % (rel, idx + 1))
    stubdir = os.path.join(moddir, STUBS)
    if os.path.isdir(stubdir):
        for d, _, fs in os.walk(stubdir):
            for f in fs:
                if os.path.relpath(os.path.join(d, f), stubdir) not in want:
                    os.remove(os.path.join(d, f))
    for h, where in sorted(want.items()):
        p = os.path.join(stubdir, h)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        _write(p, "/* %s an empty stub for %s, which the target does not have (the report's "
                  "include todo at %s) */\n" % (MARK, h, ", ".join(where)))
        out += ["stub\t%s\t%s" % (h, w) for w in where]
    if not want and os.path.isdir(stubdir):
        shutil.rmtree(stubdir)
    mk = os.path.join(moddir, "Makefile")
    text = read_text(mk)
    option = None
    if text is not None:
        m = re.search(r"^obj-\$\(CONFIG_(\w+)\)", text, re.M)
        option = m.group(1) if m else None
        text = _strip_ours(text)
        if want:
            text += ("# %s the headers the target does not have (include todos), stubbed\n"
                     "ccflags-y += -idirafter $(srctree)/security/%s/%s\n" % (MARK, name, STUBS))
        _write(mk, text)

    # the module's own options, on with the module
    kc = os.path.join(moddir, "Kconfig")
    text = read_text(kc)
    if text is not None and option:
        add = modconfig.kconfig(target, texts, option)
        text = _strip_ours(text)
        if add:
            text += "\n".join(add) + "\n"
        _write(kc, text)
        for s, e in sorted(modconfig.own(target, texts, option).items()):
            if not e["value"]:
                out.append("config\t%s\t%s:%d" % (s, e["first"][0], e["first"][1] + 1))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m lsmconv.buildprep")
    ap.add_argument("--target", required=True)
    ap.add_argument("--module", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--from", dest="frm")
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return exits.USAGE if e.code else exits.DONE
    if not os.path.isdir(os.path.join(a.target, "include")) or not os.path.isdir(a.module):
        sys.stderr.write("lsmconv.buildprep: not a kernel tree (%s) or no module directory "
                         "(%s)\n" % (a.target, a.module))
        return exits.USAGE
    try:
        lines = prep(a.target, a.module, a.name, a.frm)
    except OSError as e:
        sys.stderr.write("lsmconv.buildprep: %s\n" % e)
        return exits.FAILED
    sys.stdout.write("".join(l + "\n" for l in lines))
    return exits.DONE


if __name__ == "__main__":
    sys.exit(main())
