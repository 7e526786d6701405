// SPDX-License-Identifier: GPL-2.0
/*
 * idform: in the 6.1 form (a name string to security_add_hooks), ported to
 * a target whose security_add_hooks() takes a struct lsm_id.
 */
#include <linux/lsm_hooks.h>

static int idform_file_open(struct file *file)
{
	return 0;
}

static struct security_hook_list idform_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(file_open, idform_file_open),
};

static int __init idform_init(void)
{
	security_add_hooks(idform_hooks, ARRAY_SIZE(idform_hooks), "idform");
	return 0;
}

DEFINE_LSM(idform) = {
	.name = "idform",
	.init = idform_init,
};
