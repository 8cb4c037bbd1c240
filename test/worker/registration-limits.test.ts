// OAuth dynamic client registration (POST /oauth/register, open to anyone) is limited per caller address (an IPv6
// /64 counting as one) and for all callers together (worker/limits/registration-limit.ts): the registration past a
// limit is a 429 in the API's error shape with Retry-After, stores no client in KV and moves no counter.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { REDIRECT, send } from "./oauth-helpers.ts";

const LIMITS = { OAUTH_REGISTRATIONS_PER_ADDRESS: "3", OAUTH_REGISTRATIONS_TOTAL: "8", OAUTH_REGISTRATION_WINDOW_SECONDS: "3600" };

const register = (address: string, name = "Limited Agent") =>
  send(
    "/oauth/register",
    {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": address },
      body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }),
    },
    undefined,
    LIMITS,
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
  expect(body.error).toMatch(new RegExp(`^rate limited: at most \\d+ OAuth client registrations ${scope} per 3600 s; retry in \\d+ s$`));
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
    await expectRefused(await register("203.0.113.7", "One Too Many"), "from one address");
    expect(await storedClients()).toBe(before);
    // The refused registration moved no counter (the batch rolled back whole).
    expect(await counts()).toEqual({ "oauth-register:address:203.0.113.7": 3, "oauth-register:total": 3 });
    // The same address written as IPv4-mapped IPv6 is the same caller; another address is not.
    await expectRefused(await register("::ffff:203.0.113.7"), "from one address");
    expect((await register("203.0.113.8")).status).toBe(201);
  });

  it("counts an IPv6 caller by its /64", async () => {
    expect((await register("2001:db8:1:2::1")).status).toBe(201);
    expect((await register("2001:db8:1:2::beef")).status).toBe(201);
    expect((await register("2001:db8:1:2:ffff::9")).status).toBe(201);
    await expectRefused(await register("2001:0db8:0001:0002::2"), "from one address");
    expect((await register("2001:db8:1:3::1")).status).toBe(201); // the next /64
  });

  it("refuses everyone past the cap for all, though each address is under its own", async () => {
    for (let i = 0; i < 8; i++) expect((await register(`198.51.100.${i + 1}`)).status).toBe(201);
    const before = await storedClients();
    await expectRefused(await register("198.51.100.200"), "in all");
    expect(await storedClients()).toBe(before);
    expect((await counts())["oauth-register:total"]).toBe(8);
    expect((await counts())["oauth-register:address:198.51.100.200"]).toBeUndefined();
  });
});
