// SPDX-License-Identifier: GPL-2.0
/*
 * A fixture for tests/coccicheck: a module in the 6.1 form (a hook list
 * registered with security_add_hooks(), DEFINE_LSM), which
 * cocci/rewind/30-modules.cocci rewinds to a struct security_operations.
 */
#include <linux/lsm_hooks.h>

static int demo6_file_open(struct file *file)
{
	return 0;
}

static struct security_hook_list demo6_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(file_open, demo6_file_open),
};

static int __init demo6_init(void)
{
	security_add_hooks(demo6_hooks, ARRAY_SIZE(demo6_hooks), "demo6");
	return 0;
}

DEFINE_LSM(demo6) = {
	.name = "demo6",
	.init = demo6_init,
};
