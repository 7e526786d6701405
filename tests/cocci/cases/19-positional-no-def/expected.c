#include <linux/security.h>
#include <linux/lsm_hooks.h>

static struct security_hook_list pos_hooks[] __lsm_ro_after_init = {
	pos_ptrace_access_check,
	pos_ptrace_traceme,
};
