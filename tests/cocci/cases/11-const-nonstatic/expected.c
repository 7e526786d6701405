#include <linux/lsm_hooks.h>

static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(file_open, foo_file_open),
	LSM_HOOK_INIT(file_permission, foo_file_permission),
};

static struct security_hook_list bar_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_create, bar_inode_create),

	LSM_HOOK_INIT(inode_link, bar_inode_link),
};
