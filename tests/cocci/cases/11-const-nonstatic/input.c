#include <linux/lsm_hooks.h>

const struct security_operations foo_ops = {
	.name = "foo",
	.file_open = foo_file_open,
	.file_permission = foo_file_permission,
};

struct security_operations bar_ops = {
	.inode_create	= bar_inode_create,

	.inode_link	= bar_inode_link,
	.name		= "bar",
};
