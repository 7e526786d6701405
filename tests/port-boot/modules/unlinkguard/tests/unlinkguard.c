// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test of unlinkguard (lsmconv make port): unlink of a file named
 * lsmconv-deny* is refused with EPERM, any other unlink is allowed.
 * Prints "case unlinkguard.NAME allow|deny ERRNO" lines (verify/compare.sh)
 * and exits 0 when every case is as expected, 77 when the module is not
 * active, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lsmtest.h"

static int bad;

static void unlink_case(const char *name, const char *file, int want)
{
	int fd, e = 0;

	fd = open(file, O_CREAT | O_WRONLY, 0600);
	if (fd < 0) {
		printf("setup: create %s: %s\n", file, strerror(errno));
		bad++;
		return;
	}
	close(fd);
	if (unlink(file) < 0)
		e = errno;
	bad += lsmtest_case("unlinkguard", name, e, want);
}

int main(void)
{
	if (!lsmtest_active("unlinkguard"))
		return 77;
	unlink_case("deny_prefix", "/tmp/lsmconv-deny-me", EPERM);
	unlink_case("deny_exact", "/tmp/lsmconv-deny", EPERM);
	unlink_case("allow_other", "/tmp/lsmconv-keep", 0);
	unlink_case("allow_infix", "/tmp/x-lsmconv-deny", 0);
	return bad ? 1 : 0;
}
