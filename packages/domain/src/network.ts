import { isIPv4, isIPv6 } from "node:net";

/** Expand an IPv6 address to its eight 16-bit groups (handles "::" and an embedded IPv4 tail). */
function ipv6Groups(address: string): number[] {
  let text = address.split("%")[0]!.toLowerCase();
  const v4Tail = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4Tail) {
    const [a, b, c, d] = v4Tail[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -v4Tail[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array(missing).fill("0"), ...tailGroups].map((g) => parseInt(g, 16));
}

/**
 * The unit that network limits count: an IPv4 address, or an IPv6 /64 prefix. IPv4-mapped IPv6
 * addresses count as their IPv4 address. Anything unparseable is its own network.
 */
export function networkOf(address: string): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address.split("%")[0]!)) return `other:${address}`;
  const groups = ipv6Groups(address);
  const isV4Mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (isV4Mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}
