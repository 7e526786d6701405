// SPDX-License-Identifier: GPL-2.0
/*
 * newid: already in the form of a target with struct lsm_id; nothing to
 * port.
 */
#include <linux/lsm_hooks.h>

static int newid_file_open(struct file *file)
{
	return 0;
}

static struct security_hook_list newid_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(file_open, newid_file_open),
};

static const struct lsm_id newid_lsmid = {
	.name = "newid",
	.id = LSM_ID_UNDEF,
};

static int __init newid_init(void)
{
	security_add_hooks(newid_hooks, ARRAY_SIZE(newid_hooks), &newid_lsmid);
	return 0;
}

DEFINE_LSM(newid) = {
	.name = "newid",
	.init = newid_init,
};
