// Hop-by-hop header fields (RFC 9110 §7.6.1 and the old keep-alive ones): a proxy never passes them on. Its own
// module, free of node:http, so that the engine (which runs in pages too) can name them.
export const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];
