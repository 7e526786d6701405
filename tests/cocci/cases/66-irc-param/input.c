// SPDX-License-Identifier: GPL-2.0
/* sb_set_mnt_opts: the IRC names a hook parameter; the legacy hook passes 6.1's blob */

#include <linux/security.h>

struct security_operations {
	char name[SECURITY_NAME_MAX + 1];
	int (*sb_set_mnt_opts)(struct super_block *sb, void *mnt_opts,
			       unsigned long kern_flags,
			       unsigned long *set_kern_flags);
};

static struct security_operations *security_ops;

int security_sb_set_mnt_opts(struct super_block *sb,
				void *mnt_opts,
				unsigned long kern_flags,
				unsigned long *set_kern_flags)
{
	return security_ops->sb_set_mnt_opts(sb, mnt_opts, kern_flags,
						set_kern_flags);
}
EXPORT_SYMBOL(security_sb_set_mnt_opts);
