// SPDX-License-Identifier: GPL-2.0
/*
 * oldid: a legacy (struct security_operations) module ported to a target
 * whose security_add_hooks() takes a struct lsm_id.
 */
#include <linux/init.h>
#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int oldid_file_open(struct file *file, const struct cred *cred)
{
	return 0;
}

static struct security_hook_list oldid_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(file_open, oldid_file_open),
};

/* lsmconv port: struct lsm_id added, .id = LSM_ID_UNDEF until you choose one */
static const struct lsm_id oldid_lsmid = {
	.name = "oldid",
	.id = LSM_ID_UNDEF,
};

static __init int oldid_init(void)
{
	security_add_hooks(oldid_hooks, ARRAY_SIZE(oldid_hooks), &oldid_lsmid);
	return 0;
}

DEFINE_LSM(oldid) = {
	.name = "oldid",
	.init = oldid_init,
};
