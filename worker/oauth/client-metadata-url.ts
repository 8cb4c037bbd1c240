// Client ID metadata documents (CIMD): a client_id that is an https URL with a path names a JSON document the
// authorization server fetches to learn the client. Such a fetch is an outbound request made on someone's behalf,
// so the studio makes it only for a signed-in person (consent.ts, counted per person: metadata-fetch-limit.ts) or
// for a grant a person approved (token-endpoint.ts), and never from its own origins: a file shared from the content
// origin (CONTENT_URL) is written by any project author, and a document there would read as published by the studio.
// "Own" is the API and content origins' hosts and their subdomains: every name the studio serves from. Their
// registrable domains are not counted (the operator's other sites are not the studio, and the public suffix list
// that would tell them apart costs the Worker's bundle more than its size budget leaves); the deploy check keeps the
// two origins on different sites.
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

const within = (host: string, parent: string) => host === parent || host.endsWith(`.${parent}`);

/** Why the studio will not fetch this metadata document URL for being its own, or null when it is someone else's. */
export function ownOriginProblem(env: Env, clientId: string): string | null {
  const host = new URL(clientId).hostname.toLowerCase();
  for (const [name, origin] of [["API", apiOrigin(env)], ["content", contentOrigin(env)]] as const) {
    const own = new URL(origin).hostname.toLowerCase();
    if (within(host, own)) {
      return `a client ID metadata document cannot be served from the studio's own ${name} origin (${own}); host it on the app's own domain`;
    }
  }
  return null;
}
