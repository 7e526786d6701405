// SPDX-License-Identifier: GPL-2.0
/* the secid is not a plain variable: converted, the reset is left */

#include <linux/security.h>

static struct security_operations *security_ops;

void security_ipc_classify(struct kern_ipc_perm *ipcp, struct ipc_info *info)
{
	security_ops->ipc_getsecid(ipcp, &info->secid);
}
