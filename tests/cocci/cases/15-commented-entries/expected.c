static struct security_hook_list foo_hooks[] __lsm_ro_after_init = {
	/* process hooks */
	LSM_HOOK_INIT(task_kill, foo_task_kill),	/* signals */
	// .task_wait = foo_task_wait,
	/* .task_setnice = foo_task_setnice, */
	LSM_HOOK_INIT(task_setpgid, foo_task_setpgid),
	/*
	 * IPC
	 */
	LSM_HOOK_INIT(ipc_permission, foo_ipc_permission),
};
