/* SPDX-License-Identifier: GPL-2.0 */
/* lsmconv test fixture: the stacked lsm_hooks.h */
#ifndef __LINUX_LSM_HOOKS_H
#define __LINUX_LSM_HOOKS_H

#include <linux/security.h>

/**
 * Hook documentation.
 */

/* Security blob sizes. */
struct lsm_blob_sizes {
	int	lbs_cred;
};

#define LSM_RET_VOID ((void) 0)
extern char *lsm_names;

extern int lsm_inode_alloc(struct inode *inode);

#endif /* ! __LINUX_LSM_HOOKS_H */
