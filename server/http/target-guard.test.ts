import { describe, expect, it } from "vitest";
import { isPublicAddress } from "./target-guard";

describe("the outgoing-request guard's address rule", () => {
  it.each([
    "93.184.215.14",
    "8.8.8.8",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8", // IPv4-mapped public: connected to over IPv4
    "64:ff9b::808:808", // NAT64 of a public address (DNS64 networks)
  ])("allows the public address %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.10", "private"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "IPv6 loopback"],
    ["::", "IPv6 unspecified"],
    ["fe80::1", "IPv6 link-local"],
    ["fc00::1", "unique local"],
    ["2001:db8::1", "documentation"],
    ["::7f00:1", "IPv4-compatible 127.0.0.1"],
    ["::a9fe:a9fe", "IPv4-compatible 169.254.169.254"],
    ["::a00:1", "IPv4-compatible 10.0.0.1"],
    ["::808:808", "IPv4-compatible, even of a public address (deprecated form)"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped metadata"],
    ["::ffff:0:7f00:1", "IPv4-translated (RFC 6145)"],
    ["64:ff9b::7f00:1", "NAT64 of loopback"],
    ["64:ff9b::a9fe:a9fe", "NAT64 of metadata"],
    ["64:ff9b:1::a00:1", "local-use NAT64"],
    ["2002:7f00:1::1", "6to4 of loopback"],
    ["2002:808:808::1", "6to4, even of a public address"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo"],
    ["not an address", "not an address"],
  ])("refuses %s (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});
