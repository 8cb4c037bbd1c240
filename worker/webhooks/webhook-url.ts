// Which URLs a webhook may call. Pure: the caller passes the studio's own origins and its allow-list.
// - http or https only, no credentials in the URL;
// - never the studio itself (its API or content origin, or a loopback address on the Worker's port): a webhook
//   must not make the Worker call its own API;
// - never an address that is not on the public internet (loopback, private, link-local, unique-local, multicast,
//   unspecified, CGNAT, documentation, benchmarking, reserved; in every spelling, IPv4-mapped and NAT64 IPv6
//   included: the host is reduced to its bytes before it is judged), nor a name such as localhost, *.local,
//   *.internal or a single label, unless WEBHOOK_ALLOWED_HOSTS names it (a self-hosted or local studio's own
//   receivers). This holds wherever the studio runs, local development included.
// A public name that resolves to a private address cannot be told apart here (a Worker has no resolver); on
// Cloudflare a Worker's fetch reaches only the public internet, but a self-hosted workerd can reach its network.
import { addressClassOf } from "../net/address-class.ts";
import { bareName, isAllowedHost, type AllowedHost } from "../net/allowed-hosts.ts";
import { formatIp, parseIp, unmapIpv4, type IpAddress } from "../net/ip-address.ts";
import { parseUrl } from "../../core/parse-text.ts";

export const WEBHOOK_URL_MAX_LENGTH = 2000;

export interface StudioOrigins {
  api: string;
  content: string;
}

export interface WebhookPolicy extends StudioOrigins {
  /** WEBHOOK_ALLOWED_HOSTS, parsed: the private receivers this studio may call. */
  allowedHosts?: readonly AllowedHost[];
}

/** Why a host name (not an address) is not a name on the public internet, or null. */
function internalNameClass(name: string): string | null {
  const host = bareName(name);
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (!host.includes(".") || /\.(local|internal|home\.arpa|lan|intranet|corp|private)$/.test(host)) return "internal";
  return null;
}

/** A URL host reduced to what it points at: its address when it spells one, and why it is not public. */
function judgeHost(hostname: string): { address: IpAddress | null; why: string | null } {
  const address = parseIp(hostname);
  if (address) return { address, why: addressClassOf(address) };
  return { address: null, why: internalNameClass(hostname) };
}

/** True for hosts that reach this very machine: loopback and unspecified addresses, localhost names. */
function reachesThisMachine(hostname: string): boolean {
  const { address, why } = judgeHost(hostname);
  return address ? why === "loopback" || why === "unspecified" : why === "loopback";
}

/** The same host: equal names, or equal addresses however spelled (IPv4-mapped IPv6 is its IPv4 address). */
function sameHost(a: string, b: string): boolean {
  const [x, y] = [parseIp(a), parseIp(b)];
  if (!x || !y) return bareName(a) === bareName(b);
  return formatIp(unmapIpv4(x)) === formatIp(unmapIpv4(y));
}

const portOf = (url: URL) => url.port || (url.protocol === "https:" ? "443" : "80");

/** Why this URL may not be a webhook, or null when it may. */
export function webhookUrlProblem(value: string, policy: WebhookPolicy): string | null {
  if (value.length > WEBHOOK_URL_MAX_LENGTH) return `webhook URL is longer than ${WEBHOOK_URL_MAX_LENGTH} characters`;
  // The WHATWG parser writes every IPv4 spelling (127.1, 2130706433, 0x7f.1) as dotted decimal.
  const read = parseUrl(value);
  if (!read.ok) return "webhook URL is not a valid absolute URL";
  const url = read.value;
  if (url.protocol !== "http:" && url.protocol !== "https:") return "webhook URL must be http or https";
  if (url.username || url.password) return "webhook URL must not carry a user name or password";
  for (const own of [new URL(policy.api), new URL(policy.content)]) {
    const samePort = portOf(url) === portOf(own);
    if (samePort && (sameHost(url.hostname, own.hostname) || (reachesThisMachine(url.hostname) && reachesThisMachine(own.hostname)))) {
      return "webhook URL points at the studio itself";
    }
  }
  const { address, why } = judgeHost(url.hostname);
  if (why === null || isAllowedHost(policy.allowedHosts ?? [], url.hostname, address)) return null;
  const what = address ? `a ${why} address (${formatIp(address)})` : `a ${why} host name (${bareName(url.hostname)})`;
  return `webhook URL points at ${what}, not the public internet; the studio's operator may allow it in WEBHOOK_ALLOWED_HOSTS`;
}
