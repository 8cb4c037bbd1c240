// Client ID metadata documents (CIMD): a client_id that is an https URL with a path names a JSON document the
// authorization server fetches to learn the client. Such a fetch is an outbound request made on someone's behalf,
// so the studio makes it only for a signed-in person (consent.ts, counted per person: metadata-fetch-limit.ts) or
// for a grant a person approved (token-endpoint.ts), and never from its own origins: a file shared from the content
// origin (CONTENT_URL) is written by any project author, and a document there would read as published by the studio.
// "Own" is the API and content origins' hosts, their subdomains and their registrable domains (tldts, with the
// private section of the public suffix list, so one workers.dev account is not all of workers.dev).
import { getDomain } from "tldts";
import type { Env } from "../env.ts";
import { apiOrigin, contentOrigin } from "../http/origins.ts";

/**
 * Whether the library may treat this client_id as a metadata document URL. Its own test is an https URL with a raw
 * path (even "/"); this one is wider on purpose (any https URL, parsed as the library parses it), so nothing the
 * library would fetch escapes the checks.
 */
export function isMetadataDocumentUrl(clientId: string): boolean {
  return URL.parse(clientId)?.protocol === "https:";
}

/** The registrable domain of a host (example.co.uk for a.b.example.co.uk), or the host itself (an IP, a bare name). */
function siteOf(host: string): string {
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

const within = (host: string, parent: string) => host === parent || host.endsWith(`.${parent}`);

/** Why the studio will not fetch this metadata document URL for being its own, or null when it is someone else's. */
export function ownOriginProblem(env: Env, clientId: string): string | null {
  const host = new URL(clientId).hostname.toLowerCase();
  for (const [name, origin] of [["API", apiOrigin(env)], ["content", contentOrigin(env)]] as const) {
    const own = new URL(origin).hostname.toLowerCase();
    if (within(host, own) || within(host, siteOf(own)) || siteOf(host) === siteOf(own)) {
      return `a client ID metadata document cannot be served from the studio's own ${name} origin (${own}); host it on the app's own domain`;
    }
  }
  return null;
}
