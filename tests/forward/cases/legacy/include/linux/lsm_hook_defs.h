/* SPDX-License-Identifier: GPL-2.0 */
/* lsmconv test fixture: a four-hook lsm_hook_defs.h */
LSM_HOOK(int, 0, capable, const struct cred *cred, int cap)
LSM_HOOK(void, LSM_RET_VOID, task_free, struct task_struct *task)
LSM_HOOK(int, -ENOSYS, task_prctl, int option, unsigned long arg2)
#ifdef CONFIG_SECURITY_PATH
LSM_HOOK(int, 0, path_unlink, const struct path *dir, struct dentry *dentry)
#endif /* CONFIG_SECURITY_PATH */
LSM_HOOK(int, 0, inode_init_security, struct inode *inode, const char **name,
	 void **value)
