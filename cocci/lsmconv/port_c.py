# SPDX-License-Identifier: GPL-2.0
"""The port's C helpers, now lsmconv.cscan's (the one C scanner).

Kept only for the modules that still import them from here (lsmid.py):
    strip_comments(text)  comments and string contents blanked, newlines kept
New code imports lsmconv.cscan.
"""
from lsmconv import cscan


def strip_comments(text):
    """cscan.strip_comments with string and character literals blanked."""
    return cscan.strip_comments(text, strings=True)
