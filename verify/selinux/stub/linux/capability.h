/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for the kernel header: classmap.h only checks CAP_LAST_CAP. */
#define CAP_CHECKPOINT_RESTORE	40
#define CAP_LAST_CAP		CAP_CHECKPOINT_RESTORE
