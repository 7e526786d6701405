# SPDX-License-Identifier: GPL-2.0
"""The module's own configuration symbols (the port's `config` check).

A legacy module is often guarded by options of its own Kconfig
(`#ifdef CONFIG_SECURITY_ROOTPLUG`, `IS_ENABLED(CONFIG_FOO_DEBUG)`), which
lsmconv does not have: only the module's .c/.h files are ported, and make
port writes a Kconfig of its own (`config SECURITY_NAME`).  Without those
symbols the guarded code compiles to nothing, and an empty module "builds".

  symbols(texts)       every CONFIG_X the module uses: in a preprocessor
                       condition (#if, #ifdef, #ifndef, #elif, defined(),
                       IS_ENABLED(), IS_BUILTIN(), IS_MODULE(),
                       IS_REACHABLE()) or as a value in code or in a
                       comparison (`CONFIG_FOO_LEVEL > 2`)
  defined(tree)        every symbol a Kconfig file of the target defines
  own(tree, texts)     the symbols the module uses and the target does not
                       define: the module's own
  check(port)          a todo at the first use of each own symbol
  kconfig(tree, texts, option)
                       what make port appends to its generated Kconfig: each
                       own symbol used only as a condition becomes
                       `bool`, `default OPTION` (on with the module); one used
                       as a value is named, not guessed (its type and default
                       are the module's Kconfig's)
"""
import os
import re

from lsmconv import cscan
from lsmconv.items import port_item as Item

COND = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif)\b(.*)$")
TESTS = re.compile(r"\b(?:defined|IS_ENABLED|IS_BUILTIN|IS_MODULE|IS_REACHABLE)\s*\(?\s*"
                   r"CONFIG_(\w+)")
SYM = re.compile(r"\bCONFIG_(\w+)")


def symbols(texts):
    """{SYM: {"value": bool, "first": (rel, idx)}} (SYM without CONFIG_),
    in the order of texts and lines."""
    out = {}
    for rel in texts:
        code = cscan.code_text(texts[rel])
        lines = code.split("\n")
        i = 0
        while i < len(lines):
            text, j = cscan.logical_line(lines, i)
            m = COND.match(text)
            if m:
                cond = m.group(2)
                tested = set(TESTS.findall(cond))
                if m.group(1) in ("ifdef", "ifndef"):
                    tested |= set(SYM.findall(cond)[:1])
                for s in SYM.findall(cond):
                    e = out.setdefault(s, {"value": False, "first": (rel, i)})
                    if s not in tested and not re.search(
                            r"\bCONFIG_%s\b\s*(\)|&&|\|\||$)" % s, cond):
                        e["value"] = True   # compared: CONFIG_X > 2
            elif not text.lstrip().startswith("#"):
                for s in set(SYM.findall(text)) - set(TESTS.findall(text)):
                    out.setdefault(s, {"value": False, "first": (rel, i)})["value"] = True
                for s in TESTS.findall(text):
                    out.setdefault(s, {"value": False, "first": (rel, i)})
            i = j + 1
    return out


_DEFINED = {}


def defined(tree):
    """Every symbol a Kconfig file of the target defines (config, menuconfig)."""
    if tree not in _DEFINED:
        out = set()
        for d, dirs, files in os.walk(tree):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            for f in files:
                if f.startswith("Kconfig"):
                    with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                        out |= set(re.findall(r"^\s*(?:menu)?config\s+(\w+)", fh.read(), re.M))
        _DEFINED[tree] = out
    return _DEFINED[tree]


def own(tree, texts, option=None):
    """The symbols the module uses that the target does not define (and
    that are not OPTION, make port's own for the module)."""
    syms = symbols(texts)
    if not syms:
        return {}
    have = defined(tree)
    return {s: e for s, e in syms.items() if s not in have and s != option}


def check(port):
    """The port's `config` check: a todo at the first use of each of the
    module's own symbols."""
    option = "SECURITY_" + port.ident.upper()
    texts = {rel: port.text(rel) for rel in port.files}
    for s, e in own(port.target, texts, option).items():
        rel, idx = e["first"]
        if e["value"]:
            what = ("used as a value: make port cannot guess its type and default, so the code "
                    "that uses it does not compile until you define it (in the module's Kconfig, "
                    "or replace it by a constant)")
        else:
            what = ("without it the code it guards compiles to nothing (or the other branch): "
                    "make port defines it in its generated security/%s/Kconfig as a bool on "
                    "with CONFIG_%s; in your tree, add it to the module's Kconfig or use "
                    "CONFIG_%s instead" % (port.name, option, option))
        port.files[rel][idx].items.append(Item("todo", "config", (
            "CONFIG_%s: the module's own option (no Kconfig file of the target defines it): %s"
            % (s, what))))


def kconfig(tree, texts, option):
    """The Kconfig lines make port appends for the module's own symbols
    used only as conditions; [] when there are none."""
    out = []
    for s, e in sorted(own(tree, texts, option).items()):
        if e["value"]:
            continue
        out += ["", "# lsmconv make port: the module's own option (the report's config todo at "
                "%s:%d), on with the module" % (e["first"][0], e["first"][1] + 1),
                "config %s" % s, "\tbool", "\tdefault %s" % option]
    return out
