// SPDX-License-Identifier: GPL-2.0
/* course: a teaching module with its own cred and inode blobs. */
#include <linux/security.h>
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

static int course_cred_prepare(struct cred *new, const struct cred *old, gfp_t gfp)
{
	const struct course_cred *oc = old->security;
	struct course_cred *nc = kzalloc(sizeof(struct course_cred), gfp);

	if (nc == NULL)
		return -ENOMEM;
	nc->level = oc->level;
	new->security = nc;
	return 0;
}

static void course_cred_transfer(struct cred *new, const struct cred *old)
{
	struct course_cred *nc = new->security;

	*nc = *(struct course_cred *)old->security;
}

static int course_inode_alloc_security(struct inode *inode)
{
	inode->i_security = kzalloc(sizeof(struct course_inode), GFP_NOFS);
	return inode->i_security ? 0 : -ENOMEM;
}

static void course_inode_free_security(struct inode *inode)
{
	kfree(inode->i_security);
	inode->i_security = NULL;
}

static int course_inode_permission(struct inode *inode, int mask)
{
	struct course_inode *isec = inode->i_security;
	const struct course_cred *c = current_cred()->security;

	return isec->label > c->level ? -EACCES : 0;
}

static struct security_operations course_ops = {
	.name = "course",
	.cred_alloc_blank = course_cred_alloc_blank,
	.cred_free = course_cred_free,
	.cred_prepare = course_cred_prepare,
	.cred_transfer = course_cred_transfer,
	.inode_alloc_security = course_inode_alloc_security,
	.inode_free_security = course_inode_free_security,
	.inode_permission = course_inode_permission,
};

static int __init course_init(void)
{
	if (register_security(&course_ops))
		panic("course: cannot register\n");
	return 0;
}
security_initcall(course_init);
