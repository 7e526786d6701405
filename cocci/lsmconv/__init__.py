# SPDX-License-Identifier: GPL-2.0
"""lsmconv: the hook model and the steps of the converter.

One home per concept:
  manifest        the rules and the series steps (cocci/manifest.tsv): ids,
                  files, order, kinds; steps, subjects, commands
  hooks           the target's hooks, from include/linux/lsm_hook_defs.h
  legacy          the legacy struct security_operations (-D legacy files)
  special         the special-dispatch table (cocci/lib/special.tsv) and
                  the IRC decision
  dispatch        the dispatch vocabulary: special.tsv classes, how
                  security.c walks a hook (dispatch_kind, stop), the
                  rewind's wrapper shapes
  rule            the parameters of a semantic-patch run (-D lsmconv=,
                  -D target=, -D legacy=)
  emit            how a rule reports, in its mode (patch/report/org/context)
  names, source, kwrap   LSM names, reading C text, kernel-style wrapping
  register, define_lsm, labels, hook_list, calls, capchain, yama
                  the decisions of rules 11, 12, 13, 20, 30, 40, 50
  yama_ifdef, calling_macros
                  the text passes of rules 51 and 60 (python3 -m ...)

Import with cocci/ on sys.path: `from lsmconv import hooks`.  Semantic
patches get that directory through `-D lsmconv=DIR`.
"""
