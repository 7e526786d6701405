// SPDX-License-Identifier: GPL-2.0
/* course: a teaching module with its own cred and inode blobs. */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/slab.h>
#include <linux/cred.h>

struct course_cred { int level; };
struct course_inode { int label; };

static struct lsm_blob_sizes course_blob_sizes __ro_after_init = {
	.lbs_cred = sizeof(struct course_cred),
	.lbs_inode = sizeof(struct course_inode),
};

static inline struct course_cred *course_cred(const struct cred *cred)
{
	return cred->security + course_blob_sizes.lbs_cred;
}

static inline struct course_inode *course_inode(const struct inode *inode)
{
	return inode->i_security + course_blob_sizes.lbs_inode;
}

static int course_cred_prepare(struct cred *new, const struct cred *old, gfp_t gfp)
{
	const struct course_cred *oc = course_cred(old);
	struct course_cred *nc = course_cred(new);

	nc->level = oc->level;
	return 0;
}

static void course_cred_transfer(struct cred *new, const struct cred *old)
{
	struct course_cred *nc = course_cred(new);

	*nc = *(struct course_cred *)course_cred(old);
}

static int course_inode_permission(struct inode *inode, int mask)
{
	struct course_inode *isec = course_inode(inode);
	const struct course_cred *c = course_cred(current_cred());

	return isec->label > c->level ? -EACCES : 0;
}

static struct security_hook_list course_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(cred_prepare, course_cred_prepare),
	LSM_HOOK_INIT(cred_transfer, course_cred_transfer),
	LSM_HOOK_INIT(inode_permission, course_inode_permission),
};

/* lsmconv port: struct lsm_id added, .id = LSM_ID_UNDEF until you choose one */
static const struct lsm_id course_lsmid = {
	.name = "course",
	.id = LSM_ID_UNDEF,
};

static int __init course_init(void)
{
	security_add_hooks(course_hooks, ARRAY_SIZE(course_hooks),
			   &course_lsmid);
	return 0;
}
DEFINE_LSM(course) = {
	.name = "course",
	.init = course_init,
	.blobs = &course_blob_sizes,
};
