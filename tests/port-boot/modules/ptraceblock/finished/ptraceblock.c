// SPDX-License-Identifier: GPL-2.0
/*
 * ptraceblock - a 3.x-style security module written for lsmconv's port
 * tests: no task may PTRACE_ATTACH to a task whose comm starts with
 * "lsmconv-victim" (-EPERM).  Like every module of its time it calls the
 * capability check itself before its own.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/security.h>
#include <linux/lsm_hooks.h>
#include <linux/sched.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#define PTRACEBLOCK_VICTIM "lsmconv-victim"

static int ptraceblock_ptrace_access_check(struct task_struct *child,
					   unsigned int mode)
{
	if ((mode & PTRACE_MODE_ATTACH) &&
	    !strncmp(child->comm, PTRACEBLOCK_VICTIM,
		     sizeof(PTRACEBLOCK_VICTIM) - 1))
		return -EPERM;
	return 0;
}

static struct security_hook_list ptraceblock_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_access_check, ptraceblock_ptrace_access_check),
};

static __init int ptraceblock_init(void)
{
	security_add_hooks(ptraceblock_hooks, ARRAY_SIZE(ptraceblock_hooks),
			   "ptraceblock");

	printk(KERN_INFO "ptraceblock: initialized\n");
	return 0;
}

DEFINE_LSM(ptraceblock) = {
	.name = "ptraceblock",
	.init = ptraceblock_init,
};
