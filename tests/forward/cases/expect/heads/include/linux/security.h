/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LINUX_SECURITY_H
#define __LINUX_SECURITY_H

int security_capable(const struct cred *cred, int cap);

#ifdef CONFIG_SECURITY

#ifdef CONFIG_SECURITY_YAMA_STACKED
extern int yama_task_prctl(int option, unsigned long arg2);
#endif /* CONFIG_SECURITY_YAMA_STACKED */

#endif	/* CONFIG_SECURITY */

#endif /* ! __LINUX_SECURITY_H */
