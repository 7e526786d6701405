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

/* lsmconv port: struct lsm_id added, .id = LSM_ID_UNDEF until you choose one */
static const struct lsm_id fortwo_lsmid = {
	.name = "fortwo",
	.id = LSM_ID_UNDEF,
};

static int __init fortwo_init(void)
{
	security_add_hooks(fortwo_hooks, ARRAY_SIZE(fortwo_hooks), &fortwo_lsmid);
	return 0;
}

DEFINE_LSM(fortwo) = {
	.name = "fortwo",
	.init = fortwo_init,
};
