struct security_operations {
	char name[SECURITY_NAME_MAX + 1];

	int (*ptrace_access_check) (struct task_struct *child, unsigned int mode);
	int (*ptrace_traceme) (struct task_struct *parent);
	int (*capget) (struct task_struct *target,
		       kernel_cap_t *effective,
		       kernel_cap_t *inheritable, kernel_cap_t *permitted);
	int (*syslog) (int type);
};

static struct security_hook_list pos_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_access_check, pos_ptrace_access_check),
	LSM_HOOK_INIT(ptrace_traceme, pos_ptrace_traceme),
	LSM_HOOK_INIT(syslog, pos_syslog),
};
