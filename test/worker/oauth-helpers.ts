// OAuth for /mcp as an MCP client and a person in a browser would drive it, against the real Worker in workerd
// (D1, KV, Durable Objects). The Worker runs with an https BASE_URL here (the library refuses an http issuer that is
// not a loopback host), so requests go through worker.fetch with that environment, as config.test.ts does.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import type { Env } from "../../worker/env.ts";
import worker from "../../worker/index.ts";

export const ORIGIN = "https://studio.test";
export const REDIRECT = "http://127.0.0.1:7777/callback";
// Every registration here comes without a caller address (one shared counter): the registration limits are
// shown by registration-limits.test.ts, not met by the flows.
const oauthEnv = {
  ...(env as unknown as Env),
  BASE_URL: ORIGIN,
  CONTENT_URL: "https://content.studio.test",
  OAUTH_REGISTRATIONS_PER_ADDRESS: "1000",
} as Env;

/** One request to the Worker (with another D1 binding when given: the round-trip trace of bench/d1-trace). */
export async function send(path: string, init: RequestInit = {}, db?: D1Database, settings: Record<string, string> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const runEnv = db || Object.keys(settings).length ? ({ ...oauthEnv, ...settings, DB: db ?? oauthEnv.DB } as Env) : oauthEnv;
  const res = await worker.fetch!(new Request(`${ORIGIN}${path}`, { redirect: "manual", ...init }) as Request<unknown, IncomingRequestCfProperties>, runEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The name=value pairs of a response's Set-Cookie headers. */
export function cookiesOf(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(";")[0]!).filter((c) => !c.endsWith("="));
}

export interface Person {
  cookie: string;
  token: string;
  userId: string;
}

export async function signInPerson(name: string): Promise<Person> {
  const res = await send("/auth/dev/login", { method: "POST", headers: { "Content-Type": "application/json", Origin: ORIGIN }, body: JSON.stringify({ name }) });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: { id: string } };
  return { cookie: cookiesOf(res).join("; "), token: body.token, userId: body.user.id };
}

export async function registerClient(name = "Test Agent", redirectUris = [REDIRECT]): Promise<string> {
  const res = await send("/oauth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }),
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { client_id: string }).client_id;
}

const b64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

export function authorizePath(clientId: string, challenge: string | null, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, state: "state-123", resource: `${ORIGIN}/mcp`, ...extra });
  if (challenge) {
    q.set("code_challenge", challenge);
    q.set("code_challenge_method", "S256");
  }
  return `/oauth/authorize?${q}`;
}

export interface ConsentForm {
  handle: string;
  nonce: string;
  /** The session cookie plus the library's consent binding cookie. */
  cookie: string;
  html: string;
  headers: Headers;
}

export async function openConsent(person: Person, path: string): Promise<ConsentForm> {
  const res = await send(path, { headers: { Cookie: person.cookie } });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`consent page: ${res.status} ${res.headers.get("Location")} ${html.slice(0, 300)}`);
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";
  return { handle: field("handle"), nonce: field("nonce"), cookie: [person.cookie, ...cookiesOf(res)].join("; "), html, headers: res.headers };
}

export function postConsent(form: ConsentForm, fields: Record<string, string | string[]>, headers: Record<string, string> = { Origin: ORIGIN }) {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries({ handle: form.handle, nonce: form.nonce, ...fields })) for (const v of [value].flat()) body.append(key, v);
  return send("/oauth/authorize", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: form.cookie, ...headers }, body: body.toString() });
}

export function tokenRequest(fields: Record<string, string>) {
  return send("/oauth/token", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  scope: string;
}

/** The whole flow for one person and a fresh client: consent with `scopes`, then the code exchanged. */
export async function connect(person: Person, scopes: string[], name = "Test Agent"): Promise<Tokens & { clientId: string }> {
  const clientId = await registerClient(name);
  const { verifier, challenge } = await pkce();
  const form = await openConsent(person, authorizePath(clientId, challenge));
  const approved = await postConsent(form, { decision: "approve", scope: scopes });
  const code = new URL(approved.headers.get("Location") ?? "").searchParams.get("code");
  if (!code) throw new Error(`no code: ${approved.status} ${approved.headers.get("Location")} ${await approved.text()}`);
  const res = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier, resource: `${ORIGIN}/mcp` });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return { ...((await res.json()) as Tokens), clientId };
}

let rpcId = 0;
/** One JSON-RPC call to /mcp with a bearer token; the parsed result (or error) of the answer. */
export async function mcp(token: string, method: string, params: Record<string, unknown> = {}, db?: D1Database): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await send("/mcp", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
  }, db);
  const text = await res.text();
  const data = text.startsWith("{") ? text : (text.split("\n").find((l) => l.startsWith("data: ")) ?? "data: {}").slice(6);
  return { status: res.status, body: JSON.parse(data || "{}") as Record<string, unknown> };
}

export async function toolNames(token: string): Promise<string[]> {
  const { body } = await mcp(token, "tools/list");
  return ((body.result as { tools: { name: string }[] }).tools ?? []).map((t) => t.name).sort();
}
