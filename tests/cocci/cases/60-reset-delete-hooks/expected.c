// SPDX-License-Identifier: GPL-2.0
/* a module that disables itself at run time deletes its own hook list */

#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int foo_ptrace_traceme(struct task_struct *parent)
{
	return 0;
}

static struct security_hook_list foo_lsm_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_traceme, foo_ptrace_traceme),
};

int foo_disable(void)
{
	foo_cleanup();

	security_delete_hooks(foo_lsm_hooks, ARRAY_SIZE(foo_lsm_hooks));

	foo_disabled = 1;
	return 0;
}
