// SPDX-License-Identifier: GPL-2.0
/*
 * credcount - a 3.x course-style security module written for lsmconv's
 * port tests.  Every cred carries a blob (cred->security, allocated by the
 * module) counting the files named "lsmconv-count*" its tasks created; a
 * fork copies the count.  The third such create is refused (-EDQUOT).
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/cred.h>
#include <linux/slab.h>
#include <linux/atomic.h>
#include <linux/dcache.h>
#include <linux/string.h>

#define CREDCOUNT_PREFIX	"lsmconv-count"
#define CREDCOUNT_MAX		2

struct credcount_blob {
	atomic_t creates;
};

static struct lsm_blob_sizes credcount_blob_sizes __lsm_ro_after_init = {
	.lbs_cred = sizeof(struct credcount_blob),
};

static inline struct credcount_blob *credcount_cred(const struct cred *cred)
{
	return cred->security + credcount_blob_sizes.lbs_cred;
}

static int credcount_cred_prepare(struct cred *new, const struct cred *old,
				  gfp_t gfp)
{
	const struct credcount_blob *old_blob = credcount_cred(old);
	struct credcount_blob *blob = credcount_cred(new);

	atomic_set(&blob->creates, atomic_read(&old_blob->creates));
	return 0;
}

static int credcount_inode_create(struct inode *dir, struct dentry *dentry,
				  umode_t mode)
{
	struct credcount_blob *blob = credcount_cred(current_cred());

	if (strncmp(dentry->d_name.name, CREDCOUNT_PREFIX,
		    sizeof(CREDCOUNT_PREFIX) - 1))
		return 0;
	if (atomic_inc_return(&blob->creates) > CREDCOUNT_MAX)
		return -EDQUOT;
	return 0;
}

static struct security_hook_list credcount_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(cred_prepare, credcount_cred_prepare),
	LSM_HOOK_INIT(inode_create, credcount_inode_create),
};

static __init int credcount_init(void)
{
	security_add_hooks(credcount_hooks, ARRAY_SIZE(credcount_hooks),
			   "credcount");

	printk(KERN_INFO "credcount: initialized\n");
	return 0;
}

DEFINE_LSM(credcount) = {
	.name = "credcount",
	.init = credcount_init,
	.blobs = &credcount_blob_sizes,
};
