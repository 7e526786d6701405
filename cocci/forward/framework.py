# SPDX-License-Identifier: GPL-2.0
"""The stacked framework of v21 (Linux 4.2), generated for a legacy tree
from the tree's own struct security_operations.

forward.py imports the framework from a stacked target when it has one
(the distro fixed point).  A legacy tree stacked in its own version (a
vendor's 3.x or 4.0 tree, `forward.py STEP --tree DIR --own`) has no
target: the framework is written from these templates, and every hook
name, type, `#ifdef` group and default in it comes from the tree (the
struct's members, lsmconv.hooks, lsmconv.special.derive).  The templates
name only the framework's own identifiers; they follow 4.2's
include/linux/lsm_hooks.h and security/security.c, with one difference:
call_int_hook() evaluates its IRC only when no module supplied the hook
(4.2 evaluated it first and overwrote it), so that an IRC may be the
legacy default's own call (a capability function the legacy framework
called only for a hook no module supplied).  For a constant IRC the two
are the same.

    struct_body(lines)             -> (first, last) body lines of the struct
    list_options(lines, span)      -> union security_list_options
    hook_heads(lines, span)        -> struct security_hook_heads
    hook_list_types(delete_guard)  -> security_hook_list, LSM_HOOK_INIT,
                                      security_add_hooks(), ...
    heads_definition(lines, span)  -> the list heads, initialized
    call_macros()                  -> call_void_hook(), call_int_hook()
    loop_wrapper(sig, hook, params, value) -> a wrapper walking the list
                                      until an answer other than value
    add_hooks_function(name, array)-> NAME(): security_add_hooks(ARRAY)
"""
import re

FP = re.compile(r"\(\s*\*\s*(\w+)\s*\)\s*\(")
PP = re.compile(r"\s*#")


def struct_body(lines, name="security_operations"):
    """(first, last) line indices of the body of `struct NAME {`, or None."""
    for i, l in enumerate(lines):
        if re.match(r"struct\s+%s\s*\{" % name, l):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("}"):
                j += 1
            return i + 1, j - 1
    return None


def _members(lines, span):
    """Yield ('pp', line) for preprocessor lines and ('hook', name, [lines])
    for each function-pointer member of the body, in order; comments,
    blank lines and other members are skipped."""
    s, e = span
    code = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)),
                  "\n".join(lines[s:e + 1]), flags=re.S).split("\n")
    i = s
    while i <= e:
        l = lines[i]
        if PP.match(l):
            yield ("pp", l)
            i += 1
            continue
        if not code[i - s].strip():
            i += 1
            continue
        decl = [l]
        while ";" not in code[i - s] and i < e:
            i += 1
            decl.append(lines[i])
        i += 1
        m = FP.search(" ".join(decl))
        if m:
            yield ("hook", m.group(1), decl)


def list_options(lines, span):
    """`union security_list_options`: every hook member of the struct,
    as the struct declares it, in its #ifdef groups."""
    out = ["union security_list_options {"]
    for m in _members(lines, span):
        out.extend([m[1]] if m[0] == "pp" else m[2])
    out.append("};")
    return _drop_empty_groups(out)


def hook_heads(lines, span):
    """`struct security_hook_heads`: one list head per hook."""
    out = ["struct security_hook_heads {"]
    for m in _members(lines, span):
        out.append(m[1] if m[0] == "pp" else "\tstruct list_head %s;" % m[1])
    out.append("};")
    return _drop_empty_groups(out)


def heads_definition(lines, span):
    """The list heads, each initialized empty."""
    out = ["struct security_hook_heads security_hook_heads = {"]
    for m in _members(lines, span):
        if m[0] == "pp":
            out.append(m[1])
        else:
            out.append("\t.%s =" % m[1])
            out.append("\t\tLIST_HEAD_INIT(security_hook_heads.%s)," % m[1])
    out.append("};")
    return _drop_empty_groups(out)


def _drop_empty_groups(out):
    """Remove #if/#endif pairs with nothing between them."""
    changed = True
    while changed:
        changed = False
        for i in range(len(out) - 1):
            if re.match(r"\s*#\s*if", out[i]) and re.match(r"\s*#\s*endif", out[i + 1]):
                del out[i:i + 2]
                changed = True
                break
    return out


def hook_list_types(delete_guard):
    """The entry a module registers and how it is registered.  delete_guard:
    None (no run-time removal in the tree), "" (unconditional) or the
    `#if...` line the legacy reset_security_ops() was declared under."""
    out = [
        "/*",
        " * Security module hook list structure.",
        " * For use with generic list macros for common operations.",
        " */",
        "struct security_hook_list {",
        "\tstruct list_head\t\tlist;",
        "\tstruct list_head\t\t*head;",
        "\tunion security_list_options\thook;",
        "};",
        "",
        "/*",
        " * Initializing a security_hook_list structure takes",
        " * up a lot of space in a source file. This macro takes",
        " * care of the common case and reduces the amount of",
        " * text involved.",
        " */",
        "#define LSM_HOOK_INIT(HEAD, HOOK) \\",
        "\t{ .head = &security_hook_heads.HEAD, .hook = { .HEAD = HOOK } }",
        "",
        "extern struct security_hook_heads security_hook_heads;",
        "",
        "static inline void security_add_hooks(struct security_hook_list *hooks,",
        "\t\t\t\t      int count)",
        "{",
        "\tint i;",
        "",
        "\tfor (i = 0; i < count; i++)",
        "\t\tlist_add_tail_rcu(&hooks[i].list, hooks[i].head);",
        "}",
    ]
    if delete_guard is not None:
        body = [
            "/*",
            " * Assuring the safety of deleting a security module is up to",
            " * the security module involved. This may entail ordering the",
            " * module's hook list in a particular way, refusing to disable",
            " * the module once a policy is loaded or any number of other",
            " * actions better imagined than described.",
            " */",
            "static inline void security_delete_hooks(struct security_hook_list *hooks,",
            "\t\t\t\t\t\tint count)",
            "{",
            "\tint i;",
            "",
            "\tfor (i = 0; i < count; i++)",
            "\t\tlist_del_rcu(&hooks[i].list);",
            "}",
        ]
        out.append("")
        if delete_guard:
            cond = re.sub(r"^\s*#\s*(ifdef|if)\s+", "", delete_guard).strip()
            out += [delete_guard.strip()] + body + ["#endif /* %s */" % cond]
        else:
            out += body
    return out


def call_macros():
    """call_void_hook()/call_int_hook() walking the lists."""
    return [
        "/*",
        " * Hook list operation macros.",
        " *",
        " * call_void_hook:",
        " *\tThis is a hook that does not return a value.",
        " *",
        " * call_int_hook:",
        " *\tThis is a hook that returns a value.  IRC is the answer when",
        " *\tno module supplies the hook; it is evaluated only then.",
        " */",
        "",
        "#define call_void_hook(FUNC, ...)\t\t\t\t\\",
        "\tdo {\t\t\t\t\t\t\t\\",
        "\t\tstruct security_hook_list *P;\t\t\t\\",
        "\t\t\t\t\t\t\t\t\\",
        "\t\tlist_for_each_entry(P, &security_hook_heads.FUNC, list) \\",
        "\t\t\tP->hook.FUNC(__VA_ARGS__);\t\t\\",
        "\t} while (0)",
        "",
        "#define call_int_hook(FUNC, IRC, ...) ({\t\t\t\\",
        "\tint RC = 0;\t\t\t\t\t\t\\",
        "\tbool HOOKED = false;\t\t\t\t\t\\",
        "\tdo {\t\t\t\t\t\t\t\\",
        "\t\tstruct security_hook_list *P;\t\t\t\\",
        "\t\t\t\t\t\t\t\t\\",
        "\t\tlist_for_each_entry(P, &security_hook_heads.FUNC, list) { \\",
        "\t\t\tHOOKED = true;\t\t\t\t\\",
        "\t\t\tRC = P->hook.FUNC(__VA_ARGS__);\t\t\\",
        "\t\t\tif (RC != 0)\t\t\t\t\\",
        "\t\t\t\tbreak;\t\t\t\t\\",
        "\t\t}\t\t\t\t\t\t\\",
        "\t} while (0);\t\t\t\t\t\t\\",
        "\tHOOKED ? RC : (IRC);\t\t\t\t\t\\",
        "})",
    ]


def loop_wrapper(head, hook, params, value):
    """The body of a wrapper whose hook the tree stacked by hand until an
    answer other than VALUE: every module is asked in turn, an answer of
    VALUE means "not mine", the first other non-zero answer is returned,
    0 is kept while the next modules are asked.  head: the wrapper's
    signature lines (up to and without the '{')."""
    args = ", ".join(params)
    return head + [
        "{",
        "\tint thisrc;",
        "\tint rc = %s;" % value,
        "\tstruct security_hook_list *hp;",
        "",
        "\tlist_for_each_entry(hp, &security_hook_heads.%s, list) {" % hook,
        "\t\tthisrc = hp->hook.%s(%s);" % (hook, args),
        "\t\tif (thisrc != %s) {" % value,
        "\t\t\trc = thisrc;",
        "\t\t\tif (thisrc != 0)",
        "\t\t\t\tbreak;",
        "\t\t}",
        "\t}",
        "\treturn rc;",
        "}",
    ]


def add_hooks_function(name, array):
    """void __init NAME(void) registering ARRAY."""
    return [
        "void __init %s(void)" % name,
        "{",
        "\tsecurity_add_hooks(%s, ARRAY_SIZE(%s));" % (array, array),
        "}",
    ]
