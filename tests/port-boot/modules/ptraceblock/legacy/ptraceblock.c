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
#include <linux/sched.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#define PTRACEBLOCK_VICTIM "lsmconv-victim"

static int ptraceblock_ptrace_access_check(struct task_struct *child,
					   unsigned int mode)
{
	int rc;

	rc = cap_ptrace_access_check(child, mode);
	if (rc)
		return rc;

	if ((mode & PTRACE_MODE_ATTACH) &&
	    !strncmp(child->comm, PTRACEBLOCK_VICTIM,
		     sizeof(PTRACEBLOCK_VICTIM) - 1))
		return -EPERM;
	return 0;
}

static struct security_operations ptraceblock_ops = {
	.name =			"ptraceblock",
	.ptrace_access_check =	ptraceblock_ptrace_access_check,
	.ptrace_traceme =	cap_ptrace_traceme,
	.capget =		cap_capget,
	.capset =		cap_capset,
};

static __init int ptraceblock_init(void)
{
	if (!security_module_enable(&ptraceblock_ops))
		return 0;

	if (register_security(&ptraceblock_ops))
		panic("ptraceblock: kernel registration failed.\n");

	printk(KERN_INFO "ptraceblock: initialized\n");
	return 0;
}

security_initcall(ptraceblock_init);
