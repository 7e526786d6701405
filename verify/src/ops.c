// SPDX-License-Identifier: GPL-2.0
/*
 * lsmverify - the operations whose outcome a case records.  Each returns 0
 * if the kernel allowed it and -errno if it refused.  They run in a child
 * process (forked, or executed as "lsmverify op --in-guest-child OP ARG").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>

#include "lsmverify.h"

static int ret(int rc)
{
	return rc < 0 ? -errno : 0;
}

static int open_close(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int op_true(const char *arg)
{
	return 0;
}

static int op_read(const char *path)
{
	return open_close(path, O_RDONLY);
}

static int op_write(const char *path)
{
	return open_close(path, O_WRONLY);
}

static int op_append(const char *path)
{
	return open_close(path, O_WRONLY | O_APPEND);
}

static int op_create(const char *path)
{
	return open_close(path, O_WRONLY | O_CREAT | O_EXCL);
}

static int op_unlink(const char *path)
{
	return ret(unlink(path));
}

/*
 * Executes path, which must be lsmverify: it runs "true" and exits 0.
 * argv[0] is fixed: the program picks a suite by the name it runs under.
 */
static int op_exec(const char *path)
{
	char *const argv[] = { "lsmverify", "op", "--in-guest-child", "true",
			       "", NULL };
	char *const envp[] = { NULL };

	execve(path, argv, envp);
	return -errno;
}

static int op_chown(const char *path)
{
	return ret(chown(path, 4321, 4321));
}

static int op_setuid(const char *arg)
{
	return ret(setuid(atoi(arg)));
}

static int op_setgid(const char *arg)
{
	return ret(setgid(atoi(arg)));
}

static int op_sethostname(const char *arg)
{
	char name[65] = "";

	if (gethostname(name, sizeof(name) - 1))
		return -errno;
	return ret(sethostname(name, strlen(name)));
}

static int op_mount(const char *dir)
{
	if (mount("lsmverify-op", dir, "tmpfs", 0, NULL))
		return -errno;
	umount(dir);
	return 0;
}

static int op_nice(const char *arg)
{
	return ret(setpriority(PRIO_PROCESS, 0, arg && *arg ? atoi(arg) : -5));
}

static int op_rawsock(const char *arg)
{
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int make_socket(int family, int type)
{
	int fd = socket(family, type, 0);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int op_tcpsock(const char *arg)
{
	return make_socket(AF_INET, SOCK_STREAM);
}

static int op_unixsock(const char *arg)
{
	return make_socket(AF_UNIX, SOCK_STREAM);
}

static pid_t target_pid(const char *arg)
{
	if (!strcmp(arg, "ppid"))
		return getppid();
	if (!strcmp(arg, "self"))
		return getpid();
	return atoi(arg);
}

/* Signal 0 only asks "may I?", which some modules do not check. */
static int op_signull(const char *arg)
{
	return ret(kill(target_pid(arg), 0));
}

/* SIGURG: a real signal whose default action is to ignore it. */
static int op_sigurg(const char *arg)
{
	return ret(kill(target_pid(arg), SIGURG));
}

static int op_mknod(const char *path)
{
	int rc = mknod(path, S_IFCHR | 0600, makedev(1, 3));

	if (rc)
		return -errno;
	unlink(path);
	return 0;
}

static int op_chroot(const char *dir)
{
	return ret(chroot(dir));
}

/* Set the clock to what it is (CAP_SYS_TIME). */
static int op_settime(const char *arg)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts))
		return -errno;
	return ret(clock_settime(CLOCK_REALTIME, &ts));
}

/* Bind a TCP socket to a port below 1024 (CAP_NET_BIND_SERVICE). */
static int op_bind(const char *arg)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(atoi(arg)),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	int rc;

	if (fd < 0)
		return -errno;
	rc = ret(bind(fd, (struct sockaddr *)&sin, sizeof(sin)));
	close(fd);
	return rc;
}

/* chmod to the mode the file has (CAP_FOWNER for someone else's file). */
static int op_chmod(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	return ret(chmod(path, st.st_mode & 07777));
}

static int write_attr(const char *path, const char *val)
{
	return lv_write_str(path, val);
}

static int op_setexec(const char *label)
{
	return write_attr("/proc/self/attr/exec", label);
}

static int op_setcurrent(const char *label)
{
	return write_attr("/proc/self/attr/current", label);
}

/* "PATH=LABEL": set the Smack label of a file. */
static int op_smacklabel(const char *arg)
{
	char path[256];
	const char *eq = strchr(arg, '=');

	if (!eq || eq - arg >= (long)sizeof(path))
		return -EINVAL;
	memcpy(path, arg, eq - arg);
	path[eq - arg] = '\0';
	return ret(setxattr(path, "security.SMACK64", eq + 1, strlen(eq + 1),
			    0));
}

/*
 * Set a security.* attribute no LSM claims: commoncap's cap_inode_setxattr()
 * wants CAP_SYS_ADMIN for it.  SELinux and Smack call it themselves; with
 * AppArmor or TOMOYO it is security.c's fallback (the hook list's initial
 * return value 1), so a wrong IRC or a lost cap chain lets it through.
 */
static int op_secxattr(const char *path)
{
	return ret(setxattr(path, "security.lsmverify", "1", 1, 0));
}

/* "PATH=VALUE": write VALUE into PATH (e.g. a sysctl). */
static int op_put(const char *arg)
{
	char path[256];
	const char *eq = strchr(arg, '=');

	if (!eq || eq - arg >= (long)sizeof(path))
		return -EINVAL;
	memcpy(path, arg, eq - arg);
	path[eq - arg] = '\0';
	return lv_write_str(path, eq + 1);
}

static int op_tomoyo_domain(const char *domain)
{
	return lv_write_str("/sys/kernel/security/tomoyo/self_domain", domain);
}

static const struct lv_op ops[] = {
	{ "true", op_true },
	{ "read", op_read },
	{ "write", op_write },
	{ "append", op_append },
	{ "create", op_create },
	{ "unlink", op_unlink },
	{ "exec", op_exec },
	{ "chown", op_chown },
	{ "setuid", op_setuid },
	{ "setgid", op_setgid },
	{ "sethostname", op_sethostname },
	{ "mount", op_mount },
	{ "nice", op_nice },
	{ "rawsock", op_rawsock },
	{ "tcpsock", op_tcpsock },
	{ "unixsock", op_unixsock },
	{ "signull", op_signull },
	{ "sigurg", op_sigurg },
	{ "mknod", op_mknod },
	{ "chroot", op_chroot },
	{ "settime", op_settime },
	{ "bind", op_bind },
	{ "chmod", op_chmod },
	{ "setexec", op_setexec },
	{ "setcurrent", op_setcurrent },
	{ "smacklabel", op_smacklabel },
	{ "secxattr", op_secxattr },
	{ "put", op_put },
	{ "tomoyo_domain", op_tomoyo_domain },
	{ NULL, NULL }
};

lv_op_fn lv_find_op(const char *name)
{
	const struct lv_op *op;

	for (op = ops; op->name; op++)
		if (!strcmp(op->name, name))
			return op->fn;
	return NULL;
}

int lv_run_op(const char *name, const char *arg)
{
	lv_op_fn fn = lv_find_op(name);

	/* Not an errno: the child reports a setup failure. */
	if (!fn)
		return 1;
	return fn(arg ? arg : "");
}
