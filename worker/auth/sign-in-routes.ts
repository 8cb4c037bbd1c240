// Sign-in and sign-out for the dashboard: development sign-in and the two OAuth providers.
import { Hono, type Context } from "hono";
import * as z from "zod";
import { identityOf } from "./identity.ts";
import { afterSignIn, beginOAuth, finishOAuth, providerReplyQuery, signInQuery, type OAuthProvider, type ProviderReply } from "./oauth.ts";
import { endSession, startSession } from "./sessions.ts";
import { upsertUser } from "./users.ts";
import { openDb } from "../db/client.ts";
import { loginFlags, tokenSecret } from "../http/config.ts";
import type { AppEnv } from "../http/context.ts";
import { notFound } from "../http/errors.ts";
import { route } from "../http/route.ts";
import { json } from "../openapi/operation.ts";
import { identity } from "../openapi/shapes.ts";

export const authRoutes = new Hono<AppEnv>()
  .post(
    "/dev/login",
    route(
      {
        operationId: "devLogin", summary: "Development sign-in (when enabled); sets the session cookie", tag: "identity", access: "public",
        request: () => ({
          body: {
            json: z.object({
              name: z
                .string()
                .trim()
                .min(1, "name is required")
                .max(40, "name is at most 40 characters")
                .regex(/^[\p{L}\p{N} _.-]+$/u, "name may contain letters, digits, spaces, '_', '.' and '-'"),
            }),
            required: true,
          },
        }),
        responses: () => ({ 200: json(identity(), "signed in") }),
        errors: [400, 404],
      },
      async (c, input) => {
        if (!loginFlags(c.env).dev) throw notFound("development sign-in is disabled");
        const { name } = await input.body();
        const db = openDb(c.env.DB);
        const user = await upsertUser(db, tokenSecret(c.env), {
          provider: "dev",
          providerUserId: name.toLowerCase(),
          name,
        });
        await startSession(c, db, user.id);
        return c.json(await identityOf(c, user));
      },
    ),
  )
  .post(
    "/logout",
    route(
      { operationId: "logout", summary: "Sign out: ends the session cookie", tag: "identity", access: "public", responses: () => ({ 200: json(z.object({ signedOut: z.literal(true) }), "signed out") }) },
      async (c) => {
        await endSession(c, openDb(c.env.DB));
        return c.json({ signedOut: true });
      },
    ),
  )
  .get(
    "/github/callback",
    route(
      { operationId: "githubCallback", summary: "GitHub's redirect back", tag: "identity", access: "public", request: () => ({ query: providerReplyQuery() }), responses: () => ({ 302: { description: "to the dashboard", headers: { Location: "where to go next" } } }), errors: [400, 502] },
      (c, input) => finishSignIn(c, "github", input.query()),
    ),
  )
  .get(
    "/google/callback",
    route(
      { operationId: "googleCallback", summary: "Google's redirect back", tag: "identity", access: "public", request: () => ({ query: providerReplyQuery() }), responses: () => ({ 302: { description: "to the dashboard", headers: { Location: "where to go next" } } }), errors: [400, 502] },
      (c, input) => finishSignIn(c, "google", input.query()),
    ),
  )
  .get(
    "/github",
    route(
      { operationId: "signInGithub", summary: "Start GitHub sign-in", tag: "identity", access: "public", request: () => ({ query: signInQuery() }), responses: () => ({ 302: { description: "to GitHub", headers: { Location: "where to go next" } } }), errors: [404] },
      (c, input) => beginOAuth(c, "github", input.query()),
    ),
  )
  .get(
    "/google",
    route(
      { operationId: "signInGoogle", summary: "Start Google sign-in", tag: "identity", access: "public", request: () => ({ query: signInQuery() }), responses: () => ({ 302: { description: "to Google", headers: { Location: "where to go next" } } }), errors: [404] },
      (c, input) => beginOAuth(c, "google", input.query()),
    ),
  );

/** The provider's redirect back: check state, fetch the profile, start a session, go to the dashboard (or back to a consent request). */
async function finishSignIn(c: Context<AppEnv>, provider: OAuthProvider, reply: ProviderReply) {
  const db = openDb(c.env.DB);
  const profile = await finishOAuth(c, provider, reply);
  const user = await upsertUser(db, tokenSecret(c.env), profile);
  await startSession(c, db, user.id);
  return c.redirect(afterSignIn(c), 302);
}
