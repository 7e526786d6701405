#include <linux/security.h>

static struct security_operations pos_ops = {
	"pos",
	pos_ptrace_access_check,
	pos_ptrace_traceme,
};
