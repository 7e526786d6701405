#define FOO_HOOK(hook) .hook = foo_##hook
#define FOO_NET_HOOK socket_create

static struct security_operations foo_ops = {
	.name = "foo",
	FOO_HOOK(inode_link),
	FOO_HOOK(inode_symlink),
	.FOO_NET_HOOK = foo_socket_create,
	.inode_readlink = foo_inode_readlink,
};
