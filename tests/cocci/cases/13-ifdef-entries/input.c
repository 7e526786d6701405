static struct security_operations smack_ops = {
	.name =				"smack",

	.inode_permission =		smack_inode_permission,
#ifdef CONFIG_SECURITY_NETWORK
	.socket_post_create =		smack_socket_post_create,
#ifdef CONFIG_SECURITY_SMACK_NETFILTER
	.socket_sock_rcv_skb =		smack_socket_sock_rcv_skb,
#else
	.socket_getpeersec_stream =	smack_socket_getpeersec_stream,
#endif
#endif /* CONFIG_SECURITY_NETWORK */
#ifdef CONFIG_KEYS
	.key_alloc =			smack_key_alloc,
	.key_free =			smack_key_free,
#endif
	.ismaclabel =			smack_ismaclabel,
};
