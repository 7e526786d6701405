#define FOO_HOOK(hook) .hook = foo_##hook
#define FOO_NET_HOOK socket_create

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_link, foo_inode_link),
	LSM_HOOK_INIT(inode_symlink, foo_inode_symlink),
	LSM_HOOK_INIT(socket_create, foo_socket_create),
	LSM_HOOK_INIT(inode_readlink, foo_inode_readlink),
};
