static struct security_operations alpha_ops = {
	.name = "alpha",
	.inode_mkdir = alpha_inode_mkdir,
};

static struct security_operations beta_security_ops = {
	.inode_mkdir = beta_inode_mkdir,
	.inode_rmdir = beta_inode_rmdir,
};

static int __init alpha_init(void)
{
	if (register_security(&alpha_ops))
		panic("alpha: registration failed\n");
	return 0;
}

static int __init beta_init(void)
{
	if (register_security(&beta_security_ops))
		panic("beta: registration failed\n");
	return 0;
}

security_initcall(alpha_init);
security_initcall(beta_init);
