// A dynamically registered client nobody uses is deleted soon: registration is open to anyone, and each one stores
// a record in KV that the library keeps for 90 days (lifetimes.ts). Right after the library stores it, the record
// is written again to expire after OAUTH_UNUSED_CLIENT_SECONDS (a day by default), its expiry stamp moved to
// match. The library renews a record whose stamp has less than half its lifetime left after every successful
// token request, so the client's first code exchange gives it the full 90 days; one never used lapses in KV.
import * as z from "zod";
import { configOf } from "../config/config-of.ts";
import type { Env } from "../env.ts";

const Registered = z.object({ client_id: z.string().min(1) });

/** After a registration the library answered 201: the new client's record expires unless it is used. */
export async function expireUnlessUsed(env: Env, answer: Response, now = Date.now()): Promise<void> {
  if (answer.status !== 201) return;
  const parsed = Registered.safeParse(await answer.clone().json());
  if (!parsed.success) throw new Error(`the library's registration answer has no client_id: ${parsed.error.message}`);
  const key = `client:${parsed.data.client_id}`;
  const record = await env.OAUTH_KV.get<Record<string, unknown>>(key, { type: "json" });
  if (!record) throw new Error(`the client ${parsed.data.client_id} just registered is not in KV`);
  const seconds = configOf(env).OAUTH_UNUSED_CLIENT_SECONDS;
  await env.OAUTH_KV.put(key, JSON.stringify({ ...record, registrationExpiresAt: Math.floor(now / 1000) + seconds }), { expirationTtl: seconds });
}
