static struct security_operations foo_ops = {
	/* who we are */
	.name = "foo",

	/* process hooks */
	.task_kill = foo_task_kill,	/* signals */
	// .task_wait = foo_task_wait,
	/* .task_setnice = foo_task_setnice, */
	.task_setpgid = foo_task_setpgid,
	/*
	 * IPC
	 */
	.ipc_permission = foo_ipc_permission,
};
