// The fakes in the Worker tests, at the true external boundary: GitHub's and Google's OAuth endpoints and Google
// Fonts (fake-google-fonts.ts), answering the Worker's outbound fetches. Anything else outbound fails loudly.
import { fakeGoogleFonts } from "./fake-google-fonts.ts";
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** An id_token as Google returns one (signature not checked by the Worker: it came straight from Google over TLS). */
function googleIdToken(): string {
  const claims = { iss: "https://accounts.google.com", sub: "google-user-77", name: "Gee Oogle", email: "gee@example.com", picture: "https://example.com/g.png", aud: "test-google-client", exp: 4102444800 };
  return `${b64url({ alg: "RS256", typ: "JWT" })}.${b64url(claims)}.c2lnbmF0dXJl`;
}

/** Every outbound request the fakes saw, by "METHOD host/path": read by tests through GET outbound-log.test/count. */
const seen = new Map<string, number>();

export async function fakeOAuthProviders(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const where = `${request.method} ${url.host}${url.pathname}`;
  // The tests' own window on the log (oauth-client-metadata.test.ts: what the Worker fetched, and how often).
  if (url.host === "outbound-log.test") return json({ count: seen.get(url.searchParams.get("where") ?? "") ?? 0 });
  seen.set(where, (seen.get(where) ?? 0) + 1);
  if (where === "POST github.com/login/oauth/access_token") {
    const form = new URLSearchParams(await request.text());
    if (form.get("code") !== "good-code") return json({ error: "bad_verification_code" });
    return json({ access_token: "gho_fake", token_type: "bearer", scope: "read:user,user:email" });
  }
  if (where === "GET api.github.com/user") {
    if (request.headers.get("Authorization") !== "Bearer gho_fake") return json({ message: "Bad credentials" }, 401);
    return json({ id: 4242, login: "octocat", name: "Octo Cat", email: "octo@example.com", avatar_url: "https://example.com/o.png" });
  }
  if (where === "POST oauth2.googleapis.com/token") {
    const form = new URLSearchParams(await request.text());
    if (form.get("code") !== "good-code" || !form.get("code_verifier")) return json({ error: "invalid_grant" }, 400);
    return json({ access_token: "ya29.fake", expires_in: 3599, token_type: "Bearer", id_token: googleIdToken() });
  }
  // An MCP client's client ID metadata document (CIMD), as a client serves it from its own https URL (oauth-*.test.ts);
  // and the same document as a project author could share it from the studio's content origin, or a subdomain of
  // it (oauth-client-metadata.test.ts: the Worker must never fetch those).
  const metadataHosts = ["mcp-client.test", "content.studio.test", "share.content.studio.test", "studio.test"];
  if (request.method === "GET" && metadataHosts.includes(url.host) && url.pathname.endsWith(".json")) {
    const name = url.host === "mcp-client.test" ? "Metadata Client" : "Studio Official Client";
    return json({ client_id: url.href, client_name: name, redirect_uris: ["http://127.0.0.1:7777/callback"], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] });
  }
  const fonts = await fakeGoogleFonts(request);
  if (fonts) return fonts;
  return new Response(`outbound request not allowed in tests: ${where}`, { status: 599 });
}
