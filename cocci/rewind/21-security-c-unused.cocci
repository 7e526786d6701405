// SPDX-License-Identifier: GPL-2.0
/// After 20-security-c.cocci: drop the declarations only the hook-list loops
/// used (a separate pass, so that it sees the rewritten wrappers).
// Confidence: High
// Options: --no-includes

virtual patch

@ret_direct depends on patch@
identifier F, rc;
expression list es;
symbol security_ops;
@@
- rc = security_ops->F(es);
- return rc;
+ return security_ops->F(es);

// Declarations the loops needed.
@unused_hp depends on patch@
identifier fn, hp;
@@
fn(...) {
  ... when any
- struct security_hook_list *hp;
  ... when != hp
}

@unused_int depends on patch@
identifier fn =~ "^security_", x;
@@
fn(...) {
  ... when any
- int x;
  ... when != x
}

@unused_int_init depends on patch@
identifier fn =~ "^security_", x;
constant c;
expression E;
@@
fn(...) {
  ... when any
(
- int x = c;
|
- int x = E;
)
  ... when != x
}

