// SPDX-License-Identifier: GPL-2.0
/* sb_set_mnt_opts as in 4.0: mnt_opts is a struct security_mnt_opts *, so 6.1 IRC does not apply: IRC 0 (as 2015), todo */

#include <linux/security.h>

struct security_operations {
	char name[SECURITY_NAME_MAX + 1];
	int (*sb_set_mnt_opts)(struct super_block *sb,
			       struct security_mnt_opts *opts,
			       unsigned long kern_flags,
			       unsigned long *set_kern_flags);
};

static struct security_operations *security_ops;

int security_sb_set_mnt_opts(struct super_block *sb,
				struct security_mnt_opts *opts,
				unsigned long kern_flags,
				unsigned long *set_kern_flags)
{
	return security_ops->sb_set_mnt_opts(sb, opts, kern_flags,
						set_kern_flags);
}
EXPORT_SYMBOL(security_sb_set_mnt_opts);
