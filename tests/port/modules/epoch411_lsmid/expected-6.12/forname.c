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

static struct security_hook_list forname_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(file_open, forname_file_open),
};

/* lsmconv port: struct lsm_id added, .id = LSM_ID_UNDEF until you choose one */
static const struct lsm_id forname_lsmid = {
	.name = "forname",
	.id = LSM_ID_UNDEF,
};

static int __init forname_init(void)
{
	security_add_hooks(forname_hooks, ARRAY_SIZE(forname_hooks),
			   &forname_lsmid);
	return 0;
}

DEFINE_LSM(forname) = {
	.name = "forname",
	.init = forname_init,
};
