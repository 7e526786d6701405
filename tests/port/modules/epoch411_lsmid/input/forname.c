// SPDX-License-Identifier: GPL-2.0
/*
 * forname: written for 4.11-5.0, security_add_hooks() with a name string
 * and security_initcall(), ported to a target with struct lsm_id.
 */
#include <linux/lsm_hooks.h>

static int forname_file_open(struct file *file)
{
	return 0;
}

static struct security_hook_list forname_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(file_open, forname_file_open),
};

static int __init forname_init(void)
{
	security_add_hooks(forname_hooks, ARRAY_SIZE(forname_hooks), "forname");
	return 0;
}

security_initcall(forname_init);
