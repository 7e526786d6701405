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

static int bad;

static const char *ename(int e)
{
	switch (e) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	default: return "other";
	}
}

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
	printf("case unlinkguard.%s %s %s\n", name, e ? "deny" : "allow", ename(e));
	if (e != want) {
		printf("expected %s\n", ename(want));
		bad++;
	}
}

int main(void)
{
	char lsm[512] = "";
	FILE *f = fopen("/sys/kernel/security/lsm", "r");

	if (f) {
		if (!fgets(lsm, sizeof(lsm), f))
			lsm[0] = 0;
		fclose(f);
	}
	if (!strstr(lsm, "unlinkguard")) {
		printf("unlinkguard is not active (lsm: %s)\n", lsm);
		return 77;
	}
	unlink_case("deny_prefix", "/tmp/lsmconv-deny-me", EPERM);
	unlink_case("deny_exact", "/tmp/lsmconv-deny", EPERM);
	unlink_case("allow_other", "/tmp/lsmconv-keep", 0);
	unlink_case("allow_infix", "/tmp/x-lsmconv-deny", 0);
	return bad ? 1 : 0;
}
