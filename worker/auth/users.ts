// Finding and creating users, and their personal token. Every function takes ids, never request objects.
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { apiTokens, users } from "../db/schema/identity.ts";
import type { User } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { deriveUserToken, randomSecret, sha256Hex } from "./tokens.ts";
import { projectSlugsOf } from "./end-streams.ts";

export interface ProviderProfile {
  provider: "github" | "google" | "dev";
  providerUserId: string;
  name: string;
  email?: string | null;
  avatarUrl?: string | null;
}

/** Returns the user for a provider identity, creating it (with its personal token) on first sign-in. */
export async function upsertUser(db: Db, secret: string, profile: ProviderProfile): Promise<User> {
  const existing = await db.query.users.findFirst({
    where: and(eq(users.provider, profile.provider), eq(users.providerUserId, profile.providerUserId)),
  });
  if (existing) return existing;
  const user: User = {
    id: crypto.randomUUID(),
    name: profile.name,
    email: profile.email ?? null,
    avatarUrl: profile.avatarUrl ?? null,
    provider: profile.provider,
    createdAt: Date.now(),
  };
  const nonce = randomSecret();
  const tokenHash = await sha256Hex(await deriveUserToken(secret, user.id, nonce));
  // Insert or ignore: two first sign-ins racing must end with one user, not an error.
  await db.batch([
    db.insert(users).values({ ...user, providerUserId: profile.providerUserId }).onConflictDoNothing(),
    db.insert(apiTokens).values({ userId: user.id, nonce, tokenHash, createdAt: user.createdAt }).onConflictDoNothing(),
  ]);
  const stored = await db.query.users.findFirst({
    where: and(eq(users.provider, profile.provider), eq(users.providerUserId, profile.providerUserId)),
  });
  if (!stored) throw new Error("user insert lost");
  return stored;
}

export async function personalToken(db: Db, secret: string, userId: string): Promise<string> {
  const row = await db.query.apiTokens.findFirst({ where: eq(apiTokens.userId, userId) });
  if (!row) throw new ApiError(500, "user has no token");
  return deriveUserToken(secret, userId, row.nonce);
}

/** What a rotation changed: the new token, the old one's hash, and the user's projects (whose rooms hear of it). */
export interface Rotation {
  token: string;
  oldHash: string | null;
  slugs: string[];
}

/**
 * New nonce, new hash: the old token stops matching in the same write. The old hash and the project list are read
 * in the same batch (one round trip, one transaction: the read before the update sees the old hash), for telling
 * the rooms whose streams the old token opened (end-streams.ts).
 */
export async function rotateToken(db: Db, secret: string, userId: string): Promise<Rotation> {
  const nonce = randomSecret();
  const token = await deriveUserToken(secret, userId, nonce);
  const [old, , slugs] = await db.batch([
    db.select({ hash: apiTokens.tokenHash }).from(apiTokens).where(eq(apiTokens.userId, userId)),
    db.update(apiTokens).set({ nonce, tokenHash: await sha256Hex(token), createdAt: Date.now() }).where(eq(apiTokens.userId, userId)),
    projectSlugsOf(db, userId),
  ]);
  return { token, oldHash: old[0]?.hash ?? null, slugs: slugs.map((row) => row.slug) };
}
