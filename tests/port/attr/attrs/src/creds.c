/* attrs: credentials (see attrs.h) */
#include <linux/security.h>
#include <linux/binfmts.h>
#include <linux/sysctl.h>
#include <linux/tracehook.h>
#include "attrs.h"

int attrs_bprm_set_creds(struct linux_binprm *bprm)
{
	if (bprm->cred_prepared)
		return 0;
	return 0;
}

int attrs_sysctl(ctl_table *table, int op)
{
	return 0;
}

void attrs_resume(void)
{
	tracehook_signal_handler(0);
}
