// SPDX-License-Identifier: GPL-2.0
/* calls through other vectors: nothing to convert */

#include <linux/fs.h>

struct foo_operations {
	int (*file_lock)(struct file *file, unsigned int cmd);
	int (*tun_dev_create)(void);
};

static int foo_lock(struct foo_operations *ops, struct file *file)
{
	return ops->file_lock(file, 0);
}

static int foo_create(struct foo_operations *security_ops)
{
	return security_ops->tun_dev_create();
}

static int foo_local(struct file *file)
{
	struct foo_operations *security_ops = foo_get();

	return security_ops->file_lock(file, 1);
}
