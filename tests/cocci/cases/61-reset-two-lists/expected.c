// SPDX-License-Identifier: GPL-2.0
/* two ops structs in the file: which list to delete is not guessed */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_ptrace_traceme(struct task_struct *parent)
{
	return 0;
}

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_traceme, foo_ptrace_traceme),
};

static struct security_hook_list bar_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_traceme, foo_ptrace_traceme),
};

int foo_disable(void)
{
	reset_security_ops();
	return 0;
}
