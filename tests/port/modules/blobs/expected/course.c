// SPDX-License-Identifier: GPL-2.0
/* course: a teaching module with its own cred and inode blobs. */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/slab.h>
#include <linux/cred.h>

struct course_cred { int level; };
struct course_inode { int label; };

static int course_cred_alloc_blank(struct cred *cred, gfp_t gfp)
{
	struct course_cred *c = kzalloc(sizeof(*c), gfp);

	if (!c)
		return -ENOMEM;
	cred->security = c;
	return 0;
}

static void course_cred_free(struct cred *cred)
{
	kfree(cred->security);
}

static int course_inode_alloc_security(struct inode *inode)
{
	inode->i_security = kzalloc(sizeof(struct course_inode), GFP_NOFS);
	return inode->i_security ? 0 : -ENOMEM;
}

static void course_inode_free_security(struct inode *inode)
{
	kfree(inode->i_security);
}

static struct security_hook_list course_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(cred_alloc_blank, course_cred_alloc_blank),
	LSM_HOOK_INIT(cred_free, course_cred_free),
	LSM_HOOK_INIT(inode_alloc_security, course_inode_alloc_security),
	LSM_HOOK_INIT(inode_free_security, course_inode_free_security),
};

static int __init course_init(void)
{
	security_add_hooks(course_hooks, ARRAY_SIZE(course_hooks), "course");
	return 0;
}
DEFINE_LSM(course) = {
	.name = "course",
	.init = course_init,
};
