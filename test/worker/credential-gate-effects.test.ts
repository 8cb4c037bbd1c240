// A newcomer's handler behind the real authentication (worker/auth/authenticate.ts), written as one would write it:
// no knowledge of the credential gate, its effects made straight on the request's bindings. When the caller's
// credential was cached by this isolate and revoked since, the request is answered with the 401, the handler runs
// once (never a second time as someone else), and none of its effects happens: no D1 row, no R2 object, no Durable
// Object call.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { identifyCaller } from "../../worker/auth/authenticate.ts";
import { sha256Hex } from "../../worker/auth/tokens.ts";
import type { Env } from "../../worker/env.ts";
import type { AppEnv } from "../../worker/http/context.ts";
import { handleError } from "../../worker/http/errors.ts";
import { BASE, signIn } from "./helpers.ts";

/** Every run of the handler: who it ran as, and the label of the request. */
const runs: { label: string; as: string }[] = [];

const outboxOf = (e: Env, label: string) => e.WEBHOOK_OUTBOX.get(e.WEBHOOK_OUTBOX.idFromName(`gate-effects-${label}`));

// A route open to anyone (no requireUser), as the docs page is: it does its work for whoever calls.
const app = new Hono<AppEnv>()
  .use("*", identifyCaller(() => false))
  .post("/effects/:label", async (c) => {
    const label = c.req.param("label");
    const as = c.get("user")?.id ?? "anonymous";
    runs.push({ label, as });
    // The three effects at once, each on its own: one refused must not hide whether another went ahead.
    const outcomes = await Promise.allSettled([
      c.env.DB.prepare("INSERT INTO visitors (id, first_seen, last_seen, visits) VALUES (?1, 1, 1, 1)").bind(`gate-effects-${label}`).run(),
      c.env.FILES.put(`gate-effects/${label}`, as),
      outboxOf(c.env, label).rotateSecret(),
    ]);
    return c.json({ as, refused: outcomes.filter((o) => o.status === "rejected").length });
  })
  .onError(handleError);

async function post(label: string, token: string): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${BASE}/effects/${label}`, { method: "POST", headers: { Authorization: `Bearer ${token}` } }), env as unknown as Env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** What the request labelled `label` left behind, in each store. */
async function effectsOf(label: string) {
  const row = await env.DB.prepare("SELECT id FROM visitors WHERE id = ?1").bind(`gate-effects-${label}`).first();
  const object = await env.FILES.head(`gate-effects/${label}`);
  const outbox = await outboxOf(env as unknown as Env, label).secretInfo();
  return { d1: row !== null, r2: object !== null, durableObject: outbox.configured };
}

describe("a newcomer's handler, when the cached caller's credential is revoked between two requests", () => {
  it("runs once, is answered with the 401, and none of its effects happens", async () => {
    const { token, userId } = await signIn("Newcomer Nell");
    const first = await post("first", token); // looks the credential up and caches the caller
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ as: userId, refused: 0 });
    expect(await effectsOf("first")).toEqual({ d1: true, r2: true, durableObject: true });

    // Revoked elsewhere (another isolate rotated it): this isolate's cache still names the caller. The new hash is
    // this file's own: token hashes are unique, and other files in the same storage rotate theirs the same way.
    await env.DB.prepare("UPDATE api_tokens SET token_hash = 'rotated-elsewhere-gate-effects' WHERE token_hash = ?1").bind(await sha256Hex(token)).run();
    const second = await post("second", token);
    expect(second.status).toBe(401);
    expect(await second.json()).toMatchObject({ error: "unauthorized: invalid or revoked token" });
    expect(runs.filter((r) => r.label === "second")).toEqual([{ label: "second", as: userId }]);
    expect(await effectsOf("second")).toEqual({ d1: false, r2: false, durableObject: false });
  });
});
