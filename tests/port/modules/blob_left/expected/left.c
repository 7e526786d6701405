// SPDX-License-Identifier: GPL-2.0
/*
 * left: blob shapes the port must not convert (each stays a todo), beside
 * one simple inode pair it does convert.
 */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/slab.h>
#include <linux/cred.h>
#include <linux/refcount.h>
#include <net/sock.h>

struct left_cred { int level; char name[16]; };
struct left_inode { int label; };
struct left_sock { refcount_t ref; int peer; };

static struct lsm_blob_sizes left_blob_sizes __lsm_ro_after_init = {
	.lbs_inode = sizeof(struct left_inode),
};

static inline struct left_inode *left_inode(const struct inode *inode)
{
	return inode->i_security + left_blob_sizes.lbs_inode;
}

static struct cred *left_saved;

/* a cred blob with a trailing buffer: not sizeof(struct left_cred) */
static int left_cred_alloc_blank(struct cred *cred, gfp_t gfp)
{
	struct left_cred *c = kzalloc(sizeof(*c) + 64, gfp);

	if (!c)
		return -ENOMEM;
	cred->security = c;
	return 0;
}

static void left_cred_free(struct cred *cred)
{
	kfree(cred->security);
}

/* a refcounted sock blob */
static int left_sk_alloc_security(struct sock *sk, int family, gfp_t priority)
{
	struct left_sock *ls = kmalloc(sizeof(*ls), priority);

	if (!ls)
		return -ENOMEM;
	refcount_set(&ls->ref, 1);
	ls->peer = 0;
	sk->sk_security = ls;
	return 0;
}

static void left_sk_free_security(struct sock *sk)
{
	struct left_sock *ls = sk->sk_security;

	if (refcount_dec_and_test(&ls->ref))
		kfree(ls);
}

/* the inode blob pointer stored in the file: no file blob of its own */
static int left_file_open(struct file *file)
{
	struct inode *inode = file_inode(file);

	file->f_security = left_inode(inode);
	if (!file->f_inode->i_security)
		return -ENOENT;
	if (!file_inode(file)->i_security)
		return -ENOENT;
	return left_saved->security ? 0 : -EPERM;
}

static struct security_hook_list left_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(cred_alloc_blank, left_cred_alloc_blank),
	LSM_HOOK_INIT(cred_free, left_cred_free),
	LSM_HOOK_INIT(sk_alloc_security, left_sk_alloc_security),
	LSM_HOOK_INIT(sk_free_security, left_sk_free_security),
	LSM_HOOK_INIT(file_open, left_file_open),
};

static int __init left_init(void)
{
	security_add_hooks(left_hooks, ARRAY_SIZE(left_hooks), "left");
	return 0;
}
DEFINE_LSM(left) = {
	.name = "left",
	.init = left_init,
	.blobs = &left_blob_sizes,
};
