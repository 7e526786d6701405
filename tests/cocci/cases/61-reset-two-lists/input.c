// SPDX-License-Identifier: GPL-2.0
/* two ops structs in the file: which list to delete is not guessed */

#include <linux/security.h>

static int foo_ptrace_traceme(struct task_struct *parent)
{
	return 0;
}

static struct security_operations foo_ops = {
	.name = "foo",
	.ptrace_traceme = foo_ptrace_traceme,
};

static struct security_operations bar_ops = {
	.name = "bar",
	.ptrace_traceme = foo_ptrace_traceme,
};

int foo_disable(void)
{
	reset_security_ops();
	return 0;
}
