import { describe, expect, test } from "vitest";
import { networkOf } from "./network";

describe("networkOf", () => {
  test.each([
    ["IPv4 is its own network", "203.0.113.7", "203.0.113.7"],
    ["IPv4-mapped IPv6 is the IPv4 address", "::ffff:203.0.113.7", "203.0.113.7"],
    ["IPv6 groups by /64", "2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["same /64, other host", "2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["another /64", "2001:db8:1:3::1", "2001:db8:1:3::/64"],
    ["loopback", "::1", "0:0:0:0::/64"],
    ["zone id ignored", "fe80::1%eth0", "fe80:0:0:0::/64"],
    ["garbage is isolated", "not-an-ip", "other:not-an-ip"],
  ])("%s", (_label, address, network) => {
    expect(networkOf(address)).toBe(network);
  });
});
