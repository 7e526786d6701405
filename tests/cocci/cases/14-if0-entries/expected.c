static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_unlink, foo_inode_unlink),
#if 0
	/* not ready yet */
	LSM_HOOK_INIT(inode_rename, foo_inode_rename),
#endif
	LSM_HOOK_INIT(inode_rmdir, foo_inode_rmdir),
};
