#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compatibility entry: the hook reader is cocci/lsmconv/hooks.py."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lsmconv.hooks import main  # noqa: E402

if __name__ == "__main__":
    main()
