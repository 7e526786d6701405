// SPDX-License-Identifier: GPL-2.0-or-later
/* lsmconv test fixture: commoncap.c */
#include <linux/lsm_hooks.h>

int cap_capable(const struct cred *cred, int cap)
{
	return 0;
}

int cap_task_prctl(int option, unsigned long arg2)
{
	return -ENOSYS;
}

#ifdef CONFIG_SECURITY

static struct security_hook_list capability_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(capable, cap_capable),
	LSM_HOOK_INIT(task_prctl, cap_task_prctl),
};

static int __init capability_init(void)
{
	security_add_hooks(capability_hooks, ARRAY_SIZE(capability_hooks),
				"capability");
	return 0;
}

DEFINE_LSM(capability) = {
	.name = "capability",
	.order = LSM_ORDER_FIRST,
	.init = capability_init,
};

#endif /* CONFIG_SECURITY */
