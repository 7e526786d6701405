// SPDX-License-Identifier: GPL-2.0
/* sb_set_mnt_opts: the IRC names mnt_opts, but there is no legacy definition to check its type: IRC 0 (as 2015), todo */

#include <linux/security.h>

static struct security_operations *security_ops;

int security_sb_set_mnt_opts(struct super_block *sb,
				void *mnt_opts,
				unsigned long kern_flags,
				unsigned long *set_kern_flags)
{
	return call_int_hook(sb_set_mnt_opts, 0, sb, mnt_opts, kern_flags,
			     set_kern_flags);
}
EXPORT_SYMBOL(security_sb_set_mnt_opts);
