// Which addresses are not on the public internet, and why (IANA's special-purpose registries, RFC 6890 and its
// successors). Pure. An IPv6 address that carries an IPv4 address (IPv4-mapped ::ffff:0:0/96, IPv4-translated
// ::ffff:0:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by the IPv4 address it
// leads to, so [::ffff:127.0.0.1], [::ffff:0:7f00:1], [64:ff9b::7f00:1] and [2002:7f00:1::] are all loopback.
import { parseIpv4, samePrefix, type IpAddress } from "./ip-address.ts";

export type AddressClass =
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "unique-local"
  | "multicast"
  | "shared (CGNAT)"
  | "documentation"
  | "benchmarking"
  | "reserved";

interface Range {
  prefix: number[];
  bits: number;
  kind: AddressClass;
}

const v4 = (text: string, bits: number, kind: AddressClass): Range => ({ prefix: parseIpv4(text)!, bits, kind });
const v6 = (groups: number[], bits: number, kind: AddressClass): Range => ({ prefix: groups.flatMap((g) => [g >> 8, g & 0xff]), bits, kind });

const IPV4_RANGES: Range[] = [
  v4("0.0.0.0", 8, "unspecified"),
  v4("10.0.0.0", 8, "private"),
  v4("100.64.0.0", 10, "shared (CGNAT)"),
  v4("127.0.0.0", 8, "loopback"),
  v4("169.254.0.0", 16, "link-local"),
  v4("172.16.0.0", 12, "private"),
  v4("192.0.0.0", 24, "reserved"),
  v4("192.0.2.0", 24, "documentation"),
  v4("192.88.99.0", 24, "reserved"),
  v4("192.168.0.0", 16, "private"),
  v4("198.18.0.0", 15, "benchmarking"),
  v4("198.51.100.0", 24, "documentation"),
  v4("203.0.113.0", 24, "documentation"),
  v4("224.0.0.0", 4, "multicast"),
  v4("240.0.0.0", 4, "reserved"),
];

const IPV6_RANGES: Range[] = [
  v6([0, 0, 0, 0, 0, 0, 0, 0], 128, "unspecified"),
  v6([0, 0, 0, 0, 0, 0, 0, 1], 128, "loopback"),
  v6([0x64, 0xff9b, 1], 48, "private"), // local-use NAT64 (RFC 8215): a translator inside someone's network
  v6([0x100], 64, "reserved"), // discard-only
  v6([0x2001, 0x2], 48, "benchmarking"),
  v6([0x2001, 0xdb8], 32, "documentation"),
  v6([0x2001], 23, "reserved"), // IETF protocol assignments: Teredo, ORCHID, …
  v6([0x3fff], 20, "documentation"),
  v6([0xfc00], 7, "unique-local"),
  v6([0xfe80], 10, "link-local"),
  v6([0xfec0], 10, "private"), // site-local, deprecated but still routed inside sites
  v6([0xff00], 8, "multicast"),
];

/** The IPv4 address an IPv6 address leads to, when it is one of the forms that embed one. */
function embeddedIpv4(bytes: readonly number[]): number[] | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const ff = (at: number) => bytes[at] === 0xff && bytes[at + 1] === 0xff;
  if (zeros(0, 10) && ff(10)) return bytes.slice(12); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeros(0, 8) && ff(8) && zeros(10, 12)) return bytes.slice(12); // ::ffff:0:a.b.c.d, IPv4-translated
  if (zeros(0, 12) && !zeros(12, 15)) return bytes.slice(12); // ::a.b.c.d, IPv4-compatible (deprecated)
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return bytes.slice(12); // NAT64
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6); // 6to4
  return null;
}

/** Why this address is not a public internet address, or null when it is one. */
export function addressClassOf(address: IpAddress): AddressClass | null {
  if (address.version === 4) {
    return IPV4_RANGES.find((r) => samePrefix(address.bytes, r.prefix, r.bits))?.kind ?? null;
  }
  const inner = embeddedIpv4(address.bytes);
  if (inner) return addressClassOf({ version: 4, bytes: inner });
  const known = IPV6_RANGES.find((r) => samePrefix(address.bytes, r.prefix, r.bits))?.kind;
  if (known) return known;
  // Only 2000::/3 is allocated as global unicast; everything else is not on the internet today.
  return (address.bytes[0]! & 0xe0) === 0x20 ? null : "reserved";
}
