// Which URLs a webhook may call. Pure: the caller passes the studio's own origins.
// - http or https only, no credentials in the URL;
// - never the studio itself (its API or content origin, or a loopback address on the Worker's port): a webhook
//   must not make the Worker call its own API;
// - in production (an API origin that is not itself on a private or loopback address) never a private, loopback,
//   link-local or otherwise internal address given literally, nor a name such as localhost, *.local or
//   *.internal. A public name that resolves to a private address cannot be told apart here; a Worker's fetch
//   reaches only the public internet, which is what stops that case in production.

export const WEBHOOK_URL_MAX_LENGTH = 2000;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function privateIpv4(host: string): boolean {
  const m = IPV4.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224
  );
}

function privateIpv6(host: string): boolean {
  if (!host.startsWith("[")) return false;
  const h = host.slice(1, -1).toLowerCase();
  if (h === "::" || h === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) return privateIpv4(mapped[1]!);
  // ::ffff:7f00:1 and friends (URL parsing writes mapped IPv4 in hex), unique local fc00::/7, link-local fe80::/10.
  return h.startsWith("::ffff:") || /^f[cd]/.test(h) || /^fe[89ab]/.test(h);
}

/** True for addresses and names that are not on the public internet. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return (
    host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal") ||
    host.endsWith(".home.arpa") || (!host.includes(".") && !host.startsWith("[")) || privateIpv4(host) || privateIpv6(host)
  );
}

const bare = (hostname: string) => hostname.replace(/\.$/, "");
const isLoopback = (hostname: string) =>
  ["localhost", "[::1]", "0.0.0.0", "[::]"].includes(bare(hostname)) || /^127\./.test(hostname) || hostname.endsWith(".localhost");
const portOf = (url: URL) => url.port || (url.protocol === "https:" ? "443" : "80");

export interface StudioOrigins {
  api: string;
  content: string;
}

/** Why this URL may not be a webhook, or null when it may. */
export function webhookUrlProblem(value: string, origins: StudioOrigins): string | null {
  if (value.length > WEBHOOK_URL_MAX_LENGTH) return `webhook URL is longer than ${WEBHOOK_URL_MAX_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "webhook URL is not a valid absolute URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "webhook URL must be http or https";
  if (url.username || url.password) return "webhook URL must not carry a user name or password";
  const studio = [new URL(origins.api), new URL(origins.content)];
  for (const own of studio) {
    const sameHost = bare(url.hostname) === bare(own.hostname) && portOf(url) === portOf(own);
    if (sameHost || (isLoopback(url.hostname) && isLoopback(own.hostname) && portOf(url) === portOf(own))) {
      return "webhook URL points at the studio itself";
    }
  }
  const production = !isPrivateHost(studio[0]!.hostname);
  if (production && isPrivateHost(url.hostname)) return "webhook URL points at a private or internal address";
  return null;
}
