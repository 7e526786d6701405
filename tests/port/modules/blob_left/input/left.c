// SPDX-License-Identifier: GPL-2.0
/*
 * left: blob shapes the port must not convert (each stays a todo), beside
 * one simple inode pair it does convert.
 */
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/cred.h>
#include <linux/refcount.h>
#include <net/sock.h>

struct left_cred { int level; char name[16]; };
struct left_inode { int label; };
struct left_sock { refcount_t ref; int peer; };

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

static int left_inode_alloc_security(struct inode *inode)
{
	struct left_inode *li;

	li = kzalloc(sizeof(struct left_inode), GFP_NOFS);
	if (!li)
		return -ENOMEM;
	inode->i_security = li;
	return 0;
}

static void left_inode_free_security(struct inode *inode)
{
	kfree(inode->i_security);
}

/* the inode blob pointer stored in the file: no file blob of its own */
static int left_file_open(struct file *file)
{
	struct inode *inode = file_inode(file);

	file->f_security = inode->i_security;
	if (!file->f_inode->i_security)
		return -ENOENT;
	if (!file_inode(file)->i_security)
		return -ENOENT;
	return left_saved->security ? 0 : -EPERM;
}

static struct security_operations left_ops = {
	.name = "left",
	.cred_alloc_blank = left_cred_alloc_blank,
	.cred_free = left_cred_free,
	.sk_alloc_security = left_sk_alloc_security,
	.sk_free_security = left_sk_free_security,
	.inode_alloc_security = left_inode_alloc_security,
	.inode_free_security = left_inode_free_security,
	.file_open = left_file_open,
};

static int __init left_init(void)
{
	if (register_security(&left_ops))
		panic("left: cannot register\n");
	return 0;
}
security_initcall(left_init);
