// Sign-in and sign-out for the dashboard: development sign-in and the two OAuth providers.
import { Hono, type Context } from "hono";
import * as z from "zod";
import { identityOf } from "./identity.ts";
import { afterSignIn, beginOAuth, finishOAuth, type OAuthProvider } from "./oauth.ts";
import { endSession, startSession } from "./sessions.ts";
import { upsertUser } from "./users.ts";
import { openDb } from "../db/client.ts";
import { loginFlags, tokenSecret } from "../http/config.ts";
import type { AppEnv } from "../http/context.ts";
import { notFound } from "../http/errors.ts";
import { readJson } from "../http/validate.ts";

export const devLoginBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, "name is required")
    .max(40, "name is at most 40 characters")
    .regex(/^[\p{L}\p{N} _.-]+$/u, "name may contain letters, digits, spaces, '_', '.' and '-'"),
});

export const authRoutes = new Hono<AppEnv>()
  .post("/dev/login", async (c) => {
    if (!loginFlags(c.env).dev) throw notFound("development sign-in is disabled");
    const { name } = await readJson(c, devLoginBody);
    const db = openDb(c.env.DB);
    const user = await upsertUser(db, tokenSecret(c.env), {
      provider: "dev",
      providerUserId: name.toLowerCase(),
      name,
    });
    await startSession(c, db, user.id);
    return c.json(await identityOf(c, user));
  })
  .post("/logout", async (c) => {
    await endSession(c, openDb(c.env.DB));
    return c.json({ signedOut: true });
  })
  .get("/github/callback", (c) => finishSignIn(c, "github"))
  .get("/google/callback", (c) => finishSignIn(c, "google"))
  .get("/github", (c) => beginOAuth(c, "github"))
  .get("/google", (c) => beginOAuth(c, "google"));

/** The provider's redirect back: check state, fetch the profile, start a session, go to the dashboard (or back to a consent request). */
async function finishSignIn(c: Context<AppEnv>, provider: OAuthProvider) {
  const db = openDb(c.env.DB);
  const profile = await finishOAuth(c, provider);
  const user = await upsertUser(db, tokenSecret(c.env), profile);
  await startSession(c, db, user.id);
  return c.redirect(afterSignIn(c), 302);
}
