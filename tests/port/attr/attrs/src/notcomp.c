/* attrs: a file whose header is chosen by a macro (see attrs.h) */
#define ATTRS_ARCH_HEADER <asm/attrs-arch.h>
#include ATTRS_ARCH_HEADER
#include <linux/fs.h>
#include "attrs.h"

int attrs_inode_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	return attrs_arch_check(dir) ? -EPERM : 0;
}
