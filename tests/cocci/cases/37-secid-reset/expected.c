// SPDX-License-Identifier: GPL-2.0
/* hooks after which *secid must be defined even when no LSM answers */

#include <linux/security.h>

static struct security_operations *security_ops;

void security_ipc_getsecid(struct kern_ipc_perm *ipcp, u32 *secid)
{
	*secid = 0;
	call_void_hook(ipc_getsecid, ipcp, secid);
}

int security_secctx_to_secid(const char *secdata, u32 seclen, u32 *secid)
{
	*secid = 0;
	return call_int_hook(secctx_to_secid, 0, secdata, seclen, secid);
}
EXPORT_SYMBOL(security_secctx_to_secid);

void security_cred_getsecid(const struct cred *c, u32 *secid)
{
	if (c) {
		*secid = 0;
		call_void_hook(cred_getsecid, c, secid);
	}
}

void security_inode_getsecid(struct inode *inode, u32 *secid)
{
	call_void_hook(inode_getsecid, inode, secid);
}
