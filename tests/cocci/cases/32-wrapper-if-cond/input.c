// SPDX-License-Identifier: GPL-2.0
/* hook answers used in conditions and as plain statements */

#include <linux/security.h>

static struct security_operations *security_ops;

int security_file_lock(struct file *file, unsigned int cmd)
{
	if (security_ops->file_lock(file, cmd))
		return -EPERM;
	return 0;
}

int security_file_receive(struct file *file)
{
	if (!file)
		return 0;
	while (security_ops->file_receive(file) == -EAGAIN)
		cpu_relax();
	return 0;
}

int security_file_permission(struct file *file, int mask)
{
	security_ops->file_permission(file, mask);
	return fsnotify_perm(file, mask);
}
