// OAuth dynamic client registration (POST /oauth/register, open to anyone) is limited per network at several
// widths (an IPv4 address and /24; an IPv6 /64, /56 and /48) and, for all callers together, by a count of distinct
// networks (worker/limits/registration-limit.ts), so that one network cannot use up registration for everyone. The
// registration past a limit is a 429 in the API's error shape with Retry-After, stores no client in KV and moves no
// counter. A registration nobody uses lapses after OAUTH_UNUSED_CLIENT_SECONDS (worker/oauth/unused-clients.ts).
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { authorizePath, openConsent, pkce, postConsent, REDIRECT, send, signInPerson, tokenRequest } from "./oauth-helpers.ts";

const LIMITS = {
  OAUTH_REGISTRATIONS_PER_ADDRESS: "3",
  OAUTH_REGISTRATIONS_PER_NETWORK: "5",
  OAUTH_REGISTRATIONS_PER_SITE: "8",
  OAUTH_REGISTRATION_NETWORKS: "4",
  OAUTH_REGISTRATION_WINDOW_SECONDS: "3600",
};

const register = (address: string, name = "Limited Agent", settings: Record<string, string> = LIMITS) =>
  send(
    "/oauth/register",
    {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": address },
      body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }),
    },
    undefined,
    settings,
  );

async function storedClients(): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await env.OAUTH_KV.list({ prefix: "client:", cursor });
    count += page.keys.length;
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return count;
}

const counts = async () =>
  Object.fromEntries(
    (await env.DB.prepare("SELECT caller, count FROM rate_limits WHERE caller LIKE 'oauth-register:%' ORDER BY caller").all<{ caller: string; count: number }>()).results.map((r) => [r.caller, r.count]),
  );

async function expectRefused(res: Response, scope: string) {
  expect(res.status).toBe(429);
  const body = (await res.json()) as { error: string; code: string; retryAfter: number };
  expect(body).toMatchObject({ code: "rate_limited" });
  expect(body.error).toMatch(new RegExp(`^rate limited: .*${scope.replace(/[/()]/g, "\\$&")} per 3600 s; retry in \\d+ s$`));
  const retryAfter = Number(res.headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  expect(body.retryAfter).toBe(retryAfter);
}

describe("OAuth client registration limits", () => {
  beforeEach(async () => {
    await env.DB.prepare("DELETE FROM rate_limits WHERE caller LIKE 'oauth-register:%'").run();
  });

  it("refuses an address's registration past its limit, storing nothing; other addresses go on", async () => {
    for (let i = 0; i < 3; i++) expect((await register("203.0.113.7")).status).toBe(201);
    const before = await storedClients();
    await expectRefused(await register("203.0.113.7", "One Too Many"), "registrations from one address");
    expect(await storedClients()).toBe(before);
    // The refused registration moved no counter (the batch rolled back whole).
    expect(await counts()).toEqual({ "oauth-register:address:203.0.113.7/32": 3, "oauth-register:network:203.0.113.0/24": 3, "oauth-register:networks": 1 });
    // The same address written as IPv4-mapped IPv6 is the same caller; another address is not.
    await expectRefused(await register("::ffff:203.0.113.7"), "from one address");
    expect((await register("203.0.113.8")).status).toBe(201);
  });

  it("counts an IPv6 caller by its /64, /56 and /48", async () => {
    expect((await register("2001:db8:1:2::1")).status).toBe(201);
    expect((await register("2001:db8:1:2::beef")).status).toBe(201);
    expect((await register("2001:db8:1:2:ffff::9")).status).toBe(201);
    await expectRefused(await register("2001:0db8:0001:0002::2"), "from one address (an IPv6 /64)");
    // Other /64s of the same /56 (2001:db8:1:0::/56) share its five.
    expect((await register("2001:db8:1:3::1")).status).toBe(201);
    expect((await register("2001:db8:1:4::1")).status).toBe(201);
    await expectRefused(await register("2001:db8:1:5::1"), "from one IPv6 /56");
    // Other /56s of the same /48 share its eight.
    for (const a of ["2001:db8:1:100::1", "2001:db8:1:200::1", "2001:db8:1:300::1"]) expect((await register(a)).status).toBe(201);
    await expectRefused(await register("2001:db8:1:400::1"), "from one IPv6 /48");
    expect((await register("2001:db8:2::1")).status).toBe(201); // the next /48
  });

  it("one /56 hammering registration cannot stop a client on another network from registering", async () => {
    // Every /64 of one /56, round after round: the /56's limit stops it, and nothing it does counts for all.
    const statuses: number[] = [];
    for (let round = 0; round < 4; round++) for (let i = 0; i < 16; i++) statuses.push((await register(`2001:db8:aa:${(0x100 + i).toString(16)}::${round + 1}`, "Hammer")).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(59);
    expect((await counts())["oauth-register:networks"]).toBe(1);
    // Another IPv6 network and an IPv4 client register as if nothing happened.
    expect((await register("2001:db8:bb::1", "Bystander")).status).toBe(201);
    expect((await register("198.51.100.20", "Bystander")).status).toBe(201);
  });

  it("with the default limits, one /56 cannot use up registration for everyone (it once spent all 300)", async () => {
    const defaults = { OAUTH_REGISTRATIONS_PER_ADDRESS: "10" };
    let created = 0;
    for (let i = 0; i < 32; i++) for (let j = 0; j < 10; j++) if ((await register(`2001:db8:cc:${(0x100 + i).toString(16)}::${j + 1}`, "Hammer", defaults)).status === 201) created++;
    expect(created).toBe(30);
    expect((await register("2001:db8:dd::1", "Bystander", defaults)).status).toBe(201);
  }, 60_000);

  it("refuses new networks past the count of networks, while networks already counted go on", async () => {
    for (let i = 0; i < 4; i++) expect((await register(`198.51.${i}.1`)).status).toBe(201);
    const before = await storedClients();
    await expectRefused(await register("198.51.200.1"), "from at most 4 networks");
    expect(await storedClients()).toBe(before);
    expect((await counts())["oauth-register:networks"]).toBe(4);
    expect((await counts())["oauth-register:address:198.51.200.1/32"]).toBeUndefined();
    // A network already counted this window adds nothing to the count.
    expect((await register("198.51.0.2")).status).toBe(201);
  });
});

describe("unused registrations", () => {
  const expiryOf = async (clientId: string) => (await env.OAUTH_KV.list({ prefix: `client:${clientId}` })).keys[0]?.expiration ?? 0;

  it("lapse after a day unless used; the first code exchange keeps the client for 90 days", async () => {
    const res = await register("192.0.2.44", "Maybe Used", { OAUTH_REGISTRATIONS_PER_ADDRESS: "10" });
    expect(res.status).toBe(201);
    const { client_id } = (await res.json()) as { client_id: string };
    const now = Date.now() / 1000;
    expect(await expiryOf(client_id)).toBeGreaterThan(now + 86_400 - 120);
    expect(await expiryOf(client_id)).toBeLessThan(now + 86_400 + 120);

    const person = await signInPerson("Using Una");
    const { verifier, challenge } = await pkce();
    const form = await openConsent(person, authorizePath(client_id, challenge));
    const approved = await postConsent(form, { decision: "approve", scope: "projects:read" });
    const code = new URL(approved.headers.get("Location")!).searchParams.get("code")!;
    expect((await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id, code_verifier: verifier })).status).toBe(200);
    expect(await expiryOf(client_id)).toBeGreaterThan(now + 89 * 86_400);
  });
});
