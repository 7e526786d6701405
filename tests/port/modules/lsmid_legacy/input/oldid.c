// SPDX-License-Identifier: GPL-2.0
/*
 * oldid: a legacy (struct security_operations) module ported to a target
 * whose security_add_hooks() takes a struct lsm_id.
 */
#include <linux/init.h>
#include <linux/security.h>

static int oldid_file_open(struct file *file, const struct cred *cred)
{
	return 0;
}

static struct security_operations oldid_ops = {
	.name =		"oldid",
	.file_open =	oldid_file_open,
};

static __init int oldid_init(void)
{
	if (register_security(&oldid_ops))
		panic("oldid: kernel registration failed.\n");
	return 0;
}

security_initcall(oldid_init);
