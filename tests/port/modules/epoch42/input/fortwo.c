// SPDX-License-Identifier: GPL-2.0
/*
 * fortwo: written for 4.2-4.10, two-argument security_add_hooks() and
 * security_initcall().
 */
#include <linux/lsm_hooks.h>

static int fortwo_file_open(struct file *file, const struct cred *cred)
{
	return 0;
}

static struct security_hook_list fortwo_hooks[] = {
	LSM_HOOK_INIT(file_open, fortwo_file_open),
};

static int __init fortwo_init(void)
{
	security_add_hooks(fortwo_hooks, ARRAY_SIZE(fortwo_hooks));
	return 0;
}

security_initcall(fortwo_init);
