/*
 * gonehdr: a module written for a 3.x kernel that includes headers later
 * kernels removed, split or never had on x86 (issue 27).  Written for
 * lsmconv's tests: the port names each missing header, make port builds
 * it with those includes stubbed so that every other error is seen, and
 * attributes each error to a todo (an undeclared name from a stubbed
 * header to that header's todo; the entries after the unconverted
 * .dentry_open entry, which gcc misplaces, to that entry's todo).
 */
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/tracehook.h>
#include <linux/genhd.h>
#include <crypto/sha.h>
#include <asm/memory.h>
#include <stdarg.h>
#include <linux/fs.h>
#include <linux/cred.h>
#include <linux/dcache.h>

#define GONEHDR_UID	1000

static int gonehdr_digest_len = SHA1_DIGEST_SIZE;

static int gonehdr_inode_unlink(struct inode *dir, struct dentry *dentry)
{
	if (dentry->d_name.len == gonehdr_digest_len)
		return -EPERM;
	return 0;
}

static int gonehdr_dentry_open(struct file *file, const struct cred *cred)
{
	if (uid_eq(cred->fsuid, KUIDT_INIT(GONEHDR_UID)))
		return -EACCES;
	return 0;
}

static int gonehdr_inode_rmdir(struct inode *dir, struct dentry *dentry)
{
	return gonehdr_inode_unlink(dir, dentry);
}

static int gonehdr_inode_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	return 0;
}

static struct security_hook_list gonehdr_hooks[] __lsm_ro_after_init = {
	.dentry_open =	gonehdr_dentry_open,
	LSM_HOOK_INIT(inode_unlink, gonehdr_inode_unlink),
	LSM_HOOK_INIT(inode_rmdir, gonehdr_inode_rmdir),
	LSM_HOOK_INIT(inode_mkdir, gonehdr_inode_mkdir),
};

static __init int gonehdr_init(void)
{
	security_add_hooks(gonehdr_hooks, ARRAY_SIZE(gonehdr_hooks), "gonehdr");
	return 0;
}

DEFINE_LSM(gonehdr) = {
	.name = "gonehdr",
	.init = gonehdr_init,
};
