static struct security_operations foo_ops = {
	.name = "foo",
	.inode_unlink = foo_inode_unlink,
#if 0
	/* not ready yet */
	.inode_rename = foo_inode_rename,
#endif
	.inode_rmdir = foo_inode_rmdir,
};
