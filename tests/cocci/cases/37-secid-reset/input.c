// SPDX-License-Identifier: GPL-2.0
/* hooks after which *secid must be defined even when no LSM answers */

#include <linux/security.h>

static struct security_operations *security_ops;

void security_ipc_getsecid(struct kern_ipc_perm *ipcp, u32 *secid)
{
	security_ops->ipc_getsecid(ipcp, secid);
}

int security_secctx_to_secid(const char *secdata, u32 seclen, u32 *secid)
{
	return security_ops->secctx_to_secid(secdata, seclen, secid);
}
EXPORT_SYMBOL(security_secctx_to_secid);

void security_cred_getsecid(const struct cred *c, u32 *secid)
{
	if (c)
		security_ops->cred_getsecid(c, secid);
}

void security_inode_getsecid(struct inode *inode, u32 *secid)
{
	security_ops->inode_getsecid(inode, secid);
}
