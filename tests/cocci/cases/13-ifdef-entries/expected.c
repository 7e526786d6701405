static struct security_hook_list smack_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_permission, smack_inode_permission),
#ifdef CONFIG_SECURITY_NETWORK
	LSM_HOOK_INIT(socket_post_create, smack_socket_post_create),
#ifdef CONFIG_SECURITY_SMACK_NETFILTER
	LSM_HOOK_INIT(socket_sock_rcv_skb, smack_socket_sock_rcv_skb),
#else
	LSM_HOOK_INIT(socket_getpeersec_stream, smack_socket_getpeersec_stream),
#endif
#endif /* CONFIG_SECURITY_NETWORK */
#ifdef CONFIG_KEYS
	LSM_HOOK_INIT(key_alloc, smack_key_alloc),
	LSM_HOOK_INIT(key_free, smack_key_free),
#endif
	LSM_HOOK_INIT(ismaclabel, smack_ismaclabel),
};
