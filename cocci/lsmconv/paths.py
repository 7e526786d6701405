# SPDX-License-Identifier: GPL-2.0
"""Where lsmconv's files are: the repository and the default target tree.

The distro trees' names have one home, scripts/lib.sh (LSMCONV_DEFAULT_TARGET,
LSMCONV_TARGET); this module reads them from there, so Python and shell agree.
"""
import os
import re

COCCI = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(COCCI)


def distro_name():
    """linux-source-<LSMCONV_TARGET, else LSMCONV_DEFAULT_TARGET of lib.sh>."""
    target = os.environ.get("LSMCONV_TARGET", "")
    if not target:
        with open(os.path.join(ROOT, "scripts", "lib.sh"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^LSMCONV_DEFAULT_TARGET=(\S+)\s*$", line)
                if m:
                    target = m.group(1)
                    break
    if not target:
        raise RuntimeError("scripts/lib.sh names no LSMCONV_DEFAULT_TARGET")
    return "linux-source-" + target


def default_tree():
    """build/<distro> of the repository: the default target of every command."""
    return os.path.join(ROOT, "build", distro_name())
