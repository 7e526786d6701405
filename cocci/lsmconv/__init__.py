# SPDX-License-Identifier: GPL-2.0
"""lsmconv: the hook model and the steps of the converter.

One home per concept (docs/architecture.md):
  hooks     the target's hooks, from include/linux/lsm_hook_defs.h
  (more modules join here: the legacy struct reader, the special-dispatch
  table and the IRC decision, the report items, the driver steps)

Import with cocci/ on sys.path: `from lsmconv import hooks`.  Semantic
patches get that directory through `-D lsmconv=DIR`.
"""
