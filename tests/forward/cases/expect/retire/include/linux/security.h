/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LINUX_SECURITY_H
#define __LINUX_SECURITY_H

int security_capable(const struct cred *cred, int cap);

#endif /* ! __LINUX_SECURITY_H */
