/**
 * The client's address: the socket peer, unless `trustedHops` proxies are declared, in which case
 * the entry that the outermost trusted proxy appended to X-Forwarded-For. Entries further left
 * were written by the client and are never trusted.
 */
export function clientAddress(socketAddress: string, forwardedFor: string | null, trustedHops: number): string {
  if (trustedHops <= 0 || !forwardedFor) return socketAddress;
  const hops = forwardedFor.split(",").map((h) => h.trim()).filter(Boolean);
  return hops[hops.length - trustedHops] ?? hops[0] ?? socketAddress;
}
