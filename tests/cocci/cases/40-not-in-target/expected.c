// SPDX-License-Identifier: GPL-2.0
/* hooks that the target no longer has */

#include <linux/security.h>

static struct security_operations *security_ops;

int security_bprm_set_creds(struct linux_binprm *bprm)
{
	return security_ops->bprm_set_creds(bprm);
}

int security_sb_copy_data(char *orig, char *copy)
{
	return security_ops->sb_copy_data(orig, copy);
}

int security_syslog(int type)
{
	return call_int_hook(syslog, 0, type);
}
