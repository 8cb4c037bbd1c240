// WEBHOOK_ALLOWED_HOSTS: the receivers on a private network that a self-hosted studio (or a local one) may call
// although their address is not public. Pure. Comma-separated host names ("ci.internal", matched exactly, case and
// a trailing dot ignored), IP addresses in any spelling ("127.0.0.1", "::1") and CIDR ranges ("10.0.0.0/8",
// "fd00::/8"). The setting is read once with the rest of the configuration (worker/config/settings.ts), where an
// entry that is none of these is an error naming it.
import { isIpv4Mapped, parseIp, samePrefix, unmapIpv4, type IpAddress } from "./ip-address.ts";

export type AllowedHost = { name: string } | { address: IpAddress; bits: number };

/** A host name as compared everywhere here: lower case, without the trailing dots DNS ignores. */
export const bareName = (host: string) => host.toLowerCase().replace(/\.+$/, "");

/** One allow-list entry, or null when it is malformed. */
export function parseAllowedHost(entry: string): AllowedHost | null {
  const [host = "", bitsText, ...rest] = entry.split("/");
  if (rest.length > 0) return null;
  const address = parseIp(host);
  const full = address?.version === 4 ? 32 : 128;
  if (bitsText !== undefined) {
    const bits = /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
    return address && bits <= full ? { address, bits } : null;
  }
  if (address) return { address, bits: full };
  return /^[a-z0-9.-]+$/i.test(host) ? { name: bareName(host) } : null;
}

/** The IPv4 address (and prefix) an IPv4-mapped IPv6 one stands for, so that IPv4 entries and URLs meet. */
function asIpv4(address: IpAddress, bits: number): { address: IpAddress; bits: number } {
  return bits >= 96 && isIpv4Mapped(address) ? { address: unmapIpv4(address), bits: bits - 96 } : { address, bits };
}

/** True when the URL host (a name, or the address it spells) is on the allow-list. */
export function isAllowedHost(list: readonly AllowedHost[], name: string, address: IpAddress | null): boolean {
  const target = address ? asIpv4(address, 128).address : null;
  return list.some((entry) => {
    if ("name" in entry) return address === null && entry.name === bareName(name);
    const allowed = asIpv4(entry.address, entry.bits);
    return target !== null && target.version === allowed.address.version && samePrefix(target.bytes, allowed.address.bytes, allowed.bits);
  });
}
