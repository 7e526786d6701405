/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for the kernel header: classmap.h only checks PF_MAX. */
#define PF_MAX	46
