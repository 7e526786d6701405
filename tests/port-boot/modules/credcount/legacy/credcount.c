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

static int credcount_cred_alloc_blank(struct cred *cred, gfp_t gfp)
{
	struct credcount_blob *blob;

	blob = kzalloc(sizeof(*blob), gfp);
	if (!blob)
		return -ENOMEM;
	cred->security = blob;
	return 0;
}

static void credcount_cred_free(struct cred *cred)
{
	kfree(cred->security);
	cred->security = NULL;
}

static int credcount_cred_prepare(struct cred *new, const struct cred *old,
				  gfp_t gfp)
{
	const struct credcount_blob *old_blob = old->security;
	struct credcount_blob *blob;

	blob = kzalloc(sizeof(*blob), gfp);
	if (!blob)
		return -ENOMEM;
	atomic_set(&blob->creates, atomic_read(&old_blob->creates));
	new->security = blob;
	return 0;
}

static int credcount_inode_create(struct inode *dir, struct dentry *dentry,
				  int mode)
{
	struct credcount_blob *blob = current_cred()->security;

	if (strncmp(dentry->d_name.name, CREDCOUNT_PREFIX,
		    sizeof(CREDCOUNT_PREFIX) - 1))
		return 0;
	if (atomic_inc_return(&blob->creates) > CREDCOUNT_MAX)
		return -EDQUOT;
	return 0;
}

static struct security_operations credcount_ops = {
	.name =			"credcount",
	.cred_alloc_blank =	credcount_cred_alloc_blank,
	.cred_free =		credcount_cred_free,
	.cred_prepare =		credcount_cred_prepare,
	.inode_create =		credcount_inode_create,
};

static __init int credcount_init(void)
{
	struct cred *cred = (struct cred *)current->cred;
	struct credcount_blob *blob;

	if (!security_module_enable(&credcount_ops))
		return 0;

	blob = kzalloc(sizeof(*blob), GFP_KERNEL);
	if (!blob)
		panic("credcount: cannot allocate the initial blob.\n");
	cred->security = blob;

	if (register_security(&credcount_ops))
		panic("credcount: kernel registration failed.\n");

	printk(KERN_INFO "credcount: initialized\n");
	return 0;
}

security_initcall(credcount_init);
