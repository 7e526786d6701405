/* vmac: the vendor's compatibility names for hooks (see vmac.c) */
#ifndef VMAC_COMPAT_H
#define VMAC_COMPAT_H

#define PTRACE_ACCESS_CHECK	ptrace_access_check

#endif /* VMAC_COMPAT_H */
