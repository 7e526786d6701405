/* lsmconv test fixture: the kernel's caller of security_init() */
#include <linux/security.h>

void start_kernel(void)
{
	security_init();
}
