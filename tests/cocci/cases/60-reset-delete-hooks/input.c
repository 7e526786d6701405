// SPDX-License-Identifier: GPL-2.0
/* a module that disables itself at run time deletes its own hook list */

#include <linux/security.h>

static int foo_ptrace_traceme(struct task_struct *parent)
{
	return 0;
}

static struct security_operations foo_security_ops = {
	.name = "foo-lsm",
	.ptrace_traceme = foo_ptrace_traceme,
};

int foo_disable(void)
{
	foo_cleanup();

	reset_security_ops();

	foo_disabled = 1;
	return 0;
}
