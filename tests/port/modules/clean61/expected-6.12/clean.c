// SPDX-License-Identifier: GPL-2.0
/* clean: already in the 6.1 form; nothing to port. */
#include <linux/lsm_hooks.h>

static int clean_file_open(struct file *file)
{
	return 0;
}

static struct security_hook_list clean_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(file_open, clean_file_open),
};

/* lsmconv port: struct lsm_id added, .id = LSM_ID_UNDEF until you choose one */
static const struct lsm_id clean_lsmid = {
	.name = "clean",
	.id = LSM_ID_UNDEF,
};

static int __init clean_init(void)
{
	security_add_hooks(clean_hooks, ARRAY_SIZE(clean_hooks), &clean_lsmid);
	return 0;
}

DEFINE_LSM(clean) = {
	.name = "clean",
	.init = clean_init,
};
