// SPDX-License-Identifier: GPL-2.0
/* chain: saves the original ops and chains through it and secondary_ops. */
#include <linux/security.h>
#include <linux/lsm_hooks.h>

static struct security_operations original_ops;
static struct security_operations *secondary_ops;

static int chain_inode_permission(struct inode *inode, int mask)
{
	int rc = original_ops.inode_permission(inode, mask);

	if (rc)
		return rc;
	return secondary_ops->inode_permission(inode, mask);
}

static int chain_file_open(struct file *file)
{
	return 0;
}

static struct security_hook_list chain_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_permission, chain_inode_permission),
	LSM_HOOK_INIT(file_open, chain_file_open),
};

static int __init chain_init(void)
{
	original_ops = *security_ops;
	secondary_ops = security_ops;
	security_add_hooks(chain_hooks, ARRAY_SIZE(chain_hooks), "chain");
	return 0;
}
DEFINE_LSM(chain) = {
	.name = "chain",
	.init = chain_init,
};
