/* SPDX-License-Identifier: GPL-2.0 */
/* The module's own cap_*-named stubs (not the kernel's). */
#ifndef CAPDEF_STUBS_H
#define CAPDEF_STUBS_H
static inline int cap_file_permission(struct file *file, int mask)
{
	return 0;
}

static inline int cap_inode_permission(struct inode *inode, int mask, struct nameidata *nd)
{
	return 0;
}
#endif
