#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generators for the rewind: the parts spatch cannot write.

Everything is derived from the tree: hook names, types, defaults and #ifdef
guards from lsm_hook_defs.h (lsmconv.hooks), capability's and Yama's
hook lists from the tree's own security_hook_list arrays (listed by
list-hooks.cocci into a TSV: file, line, array, hook, function).

  gen.py struct TREE
      Append struct security_operations (one member per hook, same #ifdef
      groups) and the legacy prototypes to include/linux/security.h.
  gen.py capability TREE CAPTSV
      Write security/capability.c (default stubs + security_fixup_ops) and
      add it to security/Makefile.
  gen.py capchain TREE CAPTSV MODTSV
      Print a semantic patch that makes every module hook which capability
      also implements call cap_<hook>() first, with the continuation rule
      the stacked security.c applies to that hook.
  gen.py yama TREE YAMATSV
      Add the CONFIG_SECURITY_YAMA_STACKED prototypes to security.h and
      the Kconfig symbol; print the semantic patch that calls Yama by hand
      from security.c and hides yama_ops when stacked.

Every subcommand is idempotent: run on its own output it changes nothing.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lsmconv import dispatch  # noqa: E402
from lsmconv.hooks import parse, split_args  # noqa: E402
from lsmconv.kwrap import wrap_call as wrap  # noqa: E402


def die(msg):
    """Exit 2 with msg, named after the script that runs (gen.py, cpp_rewind.py)."""
    sys.stderr.write("%s: %s\n" % (os.path.basename(sys.argv[0]), msg))
    sys.exit(2)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def hooks(tree):
    return parse(os.path.join(tree, "include/linux/lsm_hook_defs.h"))


def read_tsv(path):
    rows = []
    for line in read(path).splitlines():
        if line.strip():
            rows.append(line.split("\t"))
    return rows


def guard_open(guard):
    """'defined(A)' -> '#ifdef A'; anything else -> '#if ...'."""
    m = re.fullmatch(r"defined\((\w+)\)", guard)
    if m:
        return "#ifdef %s" % m.group(1)
    return "#if %s" % guard


def guard_close(guard):
    m = re.fullmatch(r"defined\((\w+)\)", guard)
    return "#endif\t/* %s */" % (m.group(1) if m else guard)


def grouped(hs):
    """Yield (guard, [hooks]) runs of consecutive hooks with the same guard."""
    run, g = [], None
    for h in hs:
        if h[3] != g and run:
            yield g, run
            run = []
        g = h[3]
        run.append(h)
    if run:
        yield g, run


def param_names(args):
    """Names of the parameters in a hook's argument list."""
    if args.strip() == "void":
        return []
    names = []
    for a in split_args(args):
        m = re.search(r"\(\s*\*\s*(\w+)\s*\)", a)  # function pointer
        if m:
            names.append(m.group(1))
            continue
        m = re.search(r"(\w+)\s*(\[[^\]]*\])*\s*$", a)
        if not m:
            die("cannot find the parameter name in '%s'" % a)
        names.append(m.group(1))
    return names


# ---------------------------------------------------------------- struct
STRUCT_MARK = "struct security_operations {"


def cmd_struct(tree):
    path = os.path.join(tree, "include/linux/security.h")
    text = read(path)
    if STRUCT_MARK in text:
        return
    hs = hooks(tree)
    fwd = set()
    for h in hs:
        fwd.update(re.findall(r"\bstruct\s+(\w+)", h[4]))
    out = ["", "#ifdef CONFIG_SECURITY", "",
           "/* Maximum number of letters for an LSM name string */",
           "#define SECURITY_NAME_MAX\t10", ""]
    out += ["struct %s;" % s for s in sorted(fwd)]
    out += ["", "/**",
            " * struct security_operations - main security structure",
            " *",
            " * Security module identifier.",
            " *",
            " * @name:",
            " *\tA string that acts as a unique identifier for the LSM with max number",
            " *\tof characters = SECURITY_NAME_MAX.",
            " *",
            " * The hooks, their arguments and return values are documented in",
            " * include/linux/lsm_hooks.h; this structure has one member per hook",
            " * of include/linux/lsm_hook_defs.h.",
            " */",
            STRUCT_MARK,
            "\tchar name[SECURITY_NAME_MAX + 1];",
            ""]
    for g, run in grouped(hs):
        if g != "-":
            out.append(guard_open(g))
        for name, ret, _default, _guard, args in run:
            out += wrap("%s (*%s)" % (ret, name), args, ";", "\t")
        if g != "-":
            out.append(guard_close(g))
        out.append("")
    if out[-1] == "":
        out.pop()
    out += ["};", "",
            "/* prototypes */",
            "extern int security_module_enable(struct security_operations *ops);",
            "extern int register_security(struct security_operations *ops);",
            "extern void security_fixup_ops(struct security_operations *ops);",
            "#ifdef CONFIG_SECURITY_SELINUX_DISABLE",
            "extern void reset_security_ops(void);",
            "#endif",
            "",
            "#endif\t/* CONFIG_SECURITY */",
            ""]
    end = "#endif /* ! __LINUX_SECURITY_H */"
    i = text.rfind(end)
    if i < 0:
        die("%s: no '%s' line" % (path, end))
    write(path, text[:i].rstrip("\n") + "\n" + "\n".join(out) + "\n" + text[i:])


# ------------------------------------------------------------ capability
def security_c_irc(tree):
    """Initial return codes the stacked security.c gives call_int_hook(),
    when they are plain constants: what 'no module' means for that hook."""
    text = read(os.path.join(tree, "security/security.c"))
    irc = {}
    for m in re.finditer(r"call_int_hook\(\s*(\w+)\s*,\s*([^,()]+?)\s*,", text):
        if re.fullmatch(r"-?[A-Z0-9_]+", m.group(2)):
            irc.setdefault(m.group(1), set()).add(m.group(2))
    return {k: v.pop() for k, v in irc.items() if len(v) == 1}


def cap_list(captsv):
    return [(r[3], r[4]) for r in read_tsv(captsv)]


def cmd_capability(tree, captsv):
    caps = dict(cap_list(captsv))
    if not caps:
        die("%s: capability's hook list is empty" % captsv)
    hs = hooks(tree)
    irc = security_c_irc(tree)
    # Names the stubs must not take: every cap_* function declared by the
    # tree's headers or defined in commoncap.c.
    taken = set(re.findall(r"\b(cap_\w+)\s*\(", read(os.path.join(tree, "include/linux/security.h")) +
                           read(os.path.join(tree, "security/commoncap.c"))))
    out = ["// SPDX-License-Identifier: GPL-2.0-or-later",
           "/*",
           " *  Capabilities Linux Security Module",
           " *",
           " *  This is the default security module in case no other module is loaded.",
           " *  Generated from include/linux/lsm_hook_defs.h by lsmconv's rewind:",
           " *  one default per hook; the hooks capability implements",
           " *  (security/commoncap.c) default to the real cap_* functions.",
           " */",
           "",
           "#include <linux/security.h>",
           "#include <linux/lsm_hooks.h>",
           ""]
    fix = []
    for g, run in grouped(hs):
        body, fbody = [], []
        for name, ret, default, _guard, args in run:
            if name in caps:
                fn = caps[name]
            else:
                fn = "cap_" + name
                if fn in taken:
                    fn = "cap_" + name + "_default"
                val = irc.get(name, default)
                body += wrap("static %s %s" % (ret, fn), args, "", "")
                if ret == "void":
                    body += ["{", "}", ""]
                else:
                    body += ["{", "\treturn %s;" % val, "}", ""]
            fbody.append("\tset_to_cap_if_null(ops, %s, %s);" % (name, fn))
        if g != "-":
            out.append(guard_open(g))
            out.append("")
            fix.append(guard_open(g))
        out += body
        fix += fbody
        if g != "-":
            if out[-1] == "":
                out.pop()
            out.append(guard_close(g))
            out.append("")
            fix.append(guard_close(g))
    out += ["#define set_to_cap_if_null(ops, function, dflt)\t\t\t\\",
            "\tdo {\t\t\t\t\t\t\t\\",
            "\t\tif (!ops->function) {\t\t\t\t\\",
            "\t\t\tops->function = dflt;\t\t\t\\",
            "\t\t\tpr_debug(\"Had to override the \" #function\t\\",
            "\t\t\t\t \" security operation with the default.\\n\");\\",
            "\t\t}\t\t\t\t\t\t\\",
            "\t} while (0)",
            "",
            "void __init security_fixup_ops(struct security_operations *ops)",
            "{"]
    out += fix
    out += ["}", ""]
    write(os.path.join(tree, "security/capability.c"), "\n".join(out))
    mk = os.path.join(tree, "security/Makefile")
    text = read(mk)
    if "capability.o" not in text:
        new, n = re.subn(r"^(obj-\$\(CONFIG_SECURITY\)\s+\+= security\.o)$", r"\1 capability.o",
                         text, count=1, flags=re.M)
        if n != 1:
            die("%s: no 'obj-$(CONFIG_SECURITY) += security.o' line" % mk)
        write(mk, new)


# -------------------------------------------------------------- capchain
def dispatch_kind(sec_c, hook):
    try:
        return dispatch.dispatch_kind(sec_c, hook)
    except LookupError as e:
        die(str(e))


def cmd_capchain(tree, captsv, modtsv):
    caps = dict(cap_list(captsv))
    capfns = set(caps.values())
    sec_c = read(os.path.join(tree, "security/security.c"))
    db = {h[0]: h for h in hooks(tree)}
    out = ["// SPDX-License-Identifier: GPL-2.0",
           "/// Generated by cocci/rewind/gen.py capchain: a module's hook that",
           "/// capability also implements calls cap_<hook>() first, as every major",
           "/// module did while it replaced capability's defaults (before 4.2).",
           "// Confidence: High",
           "// Options: --no-includes",
           "",
           "virtual patch",
           ""]
    seen = set()
    n = 0
    for row in read_tsv(modtsv):
        hook, fn = row[3], row[4]
        if hook not in caps or fn in capfns or (hook, fn) in seen:
            continue
        seen.add((hook, fn))
        n += 1
        cap = caps[hook]
        kind = dispatch_kind(sec_c, hook)
        default = db[hook][2]
        r = "c%d" % n
        # The call is built from the function's own parameter names.
        out += ["@%s_has@" % r, "@@", "%s(...) {" % fn, "<+... %s(...) ...+>" % cap, "}", "",
                "@%s_ps depends on !%s_has@" % (r, r), "parameter list ps;", "@@",
                "%s(ps) { ... }" % fn, "",
                "@script:python %s_call@" % r, "ps << %s_ps.ps;" % r, "e;", "@@",
                "names = [p.rstrip().split()[-1].lstrip('*') for p in str(ps).split(',') if p.strip() and p.strip() != 'void']",
                "coccinelle.e = cocci.make_expr('%s(%%s)' %% ', '.join(names))" % cap, ""]
        if kind == "void":
            stmts = ["+\t@CALL@;"]
            decl = None
        else:
            cond = dispatch.stop(kind, "cap_rc", default)
            decl = "+\tint cap_rc;"
            stmts = ["+\tcap_rc = @CALL@;", "+\tif (%s)" % cond, "+\t\treturn cap_rc;"]
        for variant in ("d", "nod"):
            hdr = "@%s_%s depends on !%s_has%s@" % (r, variant, r, " && !%s_d" % r if variant == "nod" else "")
            meta = ["expression %s_call.e;" % r]
            if variant == "d":
                meta += ["declaration d;", "statement S;"]
            ins = []
            if decl:
                ins = [decl, "+"]
            ins += [s.replace("@CALL@", "e") for s in stmts]
            if variant == "d":
                body = ["%s(...) {" % fn, "... when != S", "    when any", "d"] + ins + ["+", "S", "...", "}"]
            else:
                body = ["%s(...) {" % fn] + ins + ["+", "...", "}"]
            out += [hdr] + meta + ["@@"] + body + [""]
    sys.stdout.write("\n".join(out))


# ------------------------------------------------------------------ yama
def cmd_yama(tree, yamatsv):
    rows = read_tsv(yamatsv)
    if not rows:
        die("%s: Yama's hook list is empty" % yamatsv)
    db = {h[0]: h for h in hooks(tree)}
    # Prototypes for security.c, 4.0 style.
    path = os.path.join(tree, "include/linux/security.h")
    text = read(path)
    if "CONFIG_SECURITY_YAMA_STACKED" not in text:
        decl = ["#ifdef CONFIG_SECURITY_YAMA_STACKED"]
        for _f, _l, _a, hook, fn in rows:
            ret, args = db[hook][1], db[hook][4]
            decl += wrap("extern %s %s" % (ret, fn), args, ";", "")
        decl += ["#endif /* CONFIG_SECURITY_YAMA_STACKED */", ""]
        mark = "#endif\t/* CONFIG_SECURITY */\n"
        i = text.rfind(mark)
        if i < 0:
            die("%s: run 'gen.py struct' first" % path)
        write(path, text[:i] + "\n".join(decl) + "\n" + text[i:])
    kc = os.path.join(tree, "security/yama/Kconfig")
    text = read(kc)
    if "SECURITY_YAMA_STACKED" not in text:
        text = text.rstrip("\n") + "\n" + "\n".join([
            "",
            "config SECURITY_YAMA_STACKED",
            "\tbool \"Yama stacked with other LSMs\"",
            "\tdepends on SECURITY_YAMA",
            "\tdefault n",
            "\thelp",
            "\t  When Yama is built into the kernel, force it to stack with the",
            "\t  selected primary LSM.",
            ""])
        write(kc, text)
    # The semantic patch for security.c and yama_lsm.c.
    out = ["// SPDX-License-Identifier: GPL-2.0",
           "/// Generated by cocci/rewind/gen.py yama: with CONFIG_SECURITY_YAMA_STACKED",
           "/// security.c calls Yama by hand before the single security_ops vector",
           "/// (4.0's ad hoc stacking), and Yama does not register itself.",
           "// Confidence: High",
           "// Options: --no-includes",
           "",
           "virtual patch",
           ""]
    for n, (_f, _l, _a, hook, fn) in enumerate(rows, 1):
        ret, default = db[hook][1], db[hook][2]
        # yama_lsm.c: the hook functions become global.
        out += ["@y%d_glob@" % n, "identifier f = %s;" % fn, "type T;", "@@", "- static", "  T f(...) { ... }", ""]
        if ret == "void":
            out += ["@y%d_call@" % n, "expression list es;", "symbol security_ops;", "@@",
                    "+#ifdef CONFIG_SECURITY_YAMA_STACKED", "+\t%s(es);" % fn, "+#endif",
                    "  security_ops->%s(es);" % hook, ""]
        else:
            cond = "rc" if default == "0" else "rc != %s" % default
            out += ["@y%d_call@" % n, "expression list es;", "symbol security_ops;", "@@",
                    "+#ifdef CONFIG_SECURITY_YAMA_STACKED", "+\tint rc;", "+",
                    "+\trc = %s(es);" % fn, "+\tif (%s)" % cond, "+\t\treturn rc;", "+#endif",
                    "  return security_ops->%s(es);" % hook, ""]
    # yama_lsm.c: when stacked, Yama neither checks nor registers.
    ops = rows[0][2]
    ops = (ops[:-len("_hooks")] if ops.endswith("_hooks") else ops) + "_ops"
    out += ["@y_chk@", "identifier O = %s;" % ops, "@@",
            "+#ifndef CONFIG_SECURITY_YAMA_STACKED",
            "  if (!security_module_enable(&O))", "\treturn 0;",
            "+#endif", "",
            "@y_reg@", "identifier O = %s;" % ops, "expression E;", "@@",
            "+#ifndef CONFIG_SECURITY_YAMA_STACKED",
            "  if (register_security(&O))", "\tpanic(...);",
            "+#endif", "",
            "@y_ops@", "identifier O = %s;" % ops, "@@",
            "+#ifndef CONFIG_SECURITY_YAMA_STACKED",
            "  struct security_operations O = { ... };",
            "+#endif", ""]
    sys.stdout.write("\n".join(out))


def main():
    a = sys.argv[1:]
    cmds = {"struct": (cmd_struct, 1), "capability": (cmd_capability, 2),
            "capchain": (cmd_capchain, 3), "yama": (cmd_yama, 2)}
    if not a or a[0] not in cmds or len(a) - 1 != cmds[a[0]][1]:
        die("usage: gen.py struct TREE | capability TREE CAPTSV | "
            "capchain TREE CAPTSV MODTSV | yama TREE YAMATSV")
    cmds[a[0]][0](*a[1:])


if __name__ == "__main__":
    main()
