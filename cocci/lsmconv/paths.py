# SPDX-License-Identifier: GPL-2.0
"""Where lsmconv's files are: the repository and the default target tree.

The distro tree's name has one home, scripts/lib.sh (LSMCONV_DISTRO=...);
this module reads it from there, so Python and shell agree.
"""
import os
import re

COCCI = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(COCCI)


def distro_name():
    with open(os.path.join(ROOT, "scripts", "lib.sh"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^LSMCONV_DISTRO=(\S+)\s*$", line)
            if m:
                return m.group(1)
    raise RuntimeError("scripts/lib.sh names no LSMCONV_DISTRO")


def default_tree():
    """build/<distro> of the repository: the default target of every command."""
    return os.path.join(ROOT, "build", distro_name())
