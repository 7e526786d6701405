// SPDX-License-Identifier: GPL-2.0
/*
 * lsmtest-exit: end the QEMU guest with an exit status the host can read.
 *
 * Writes CODE to QEMU's isa-debug-exit device (port 0xf4); QEMU then exits
 * with status (CODE << 1) | 1.  Needs CAP_SYS_RAWIO and no lockdown of I/O
 * ports; when either is missing it returns 1 and the caller falls back to a
 * reboot (the status port already carries the result).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	int code;

	if (argc != 2) {
		fprintf(stderr, "usage: lsmtest-exit CODE\n");
		return 2;
	}
	code = atoi(argv[1]);
	if (ioperm(DEBUG_EXIT_PORT, 1, 1)) {
		perror("lsmtest-exit: ioperm");
		return 1;
	}
	outb(code & 0xff, DEBUG_EXIT_PORT);
	/* Not reached when the device is present. */
	fprintf(stderr, "lsmtest-exit: no isa-debug-exit device\n");
	return 1;
}
