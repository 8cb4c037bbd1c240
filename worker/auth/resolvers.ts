// Maps a credential kind (told apart by prefix, or the session cookie) to the one SQL lookup that turns its hash
// into a caller. The bot and node lookups live with their resources and register here, so this middleware never
// grows per resource. A lookup is plain SQL rather than a query builder because the same text is also run wrapped
// in the credential guard (credential-guard.ts), first in the batches a request sends before its caller is confirmed.
import type { AppVariables } from "../http/context.ts";
import type { TokenKind } from "./tokens.ts";

export type CallerPatch = Partial<Pick<AppVariables, "user" | "bot" | "node" | "credential">>;
export type CredentialKind = TokenKind | "session";

export interface CredentialLookup {
  /** A SELECT of at most one row with an `id` column (the caller's id); `?1` is the hash, `?2` the time when bound. */
  sql: string;
  /** The values to bind, from the credential's hash and the time of the request. */
  params(hash: string, now: number): unknown[];
  /** The caller a row names. */
  callerOf(row: Record<string, unknown>): CallerPatch;
  /** Who the caller is, for telling a cached caller from the guard's fresh row (never changes for one hash). */
  identityOf(caller: CallerPatch): string | undefined;
}

/** A column of a lookup row as a string, or null. */
export function textOf(row: Record<string, unknown>, key: string): string | null {
  const value = row[key];
  return value === null || value === undefined ? null : String(value);
}

// The users row in the shape of `User` (http/context.ts), for the user and session lookups.
const USER_COLUMNS = "u.id AS id, u.name AS name, u.email AS email, u.avatar_url AS avatarUrl, u.provider AS provider, u.created_at AS createdAt";

function userOf(row: Record<string, unknown>) {
  return {
    id: String(row.id),
    name: String(row.name),
    email: textOf(row, "email"),
    avatarUrl: textOf(row, "avatarUrl"),
    provider: String(row.provider),
    createdAt: Number(row.createdAt),
  };
}

const lookups = new Map<CredentialKind, CredentialLookup>([
  [
    "user",
    {
      sql: `SELECT ${USER_COLUMNS} FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?1`,
      params: (hash) => [hash],
      callerOf: (row) => ({ user: userOf(row), credential: "token" }),
      identityOf: (caller) => caller.user?.id,
    },
  ],
  [
    "session",
    {
      sql: `SELECT ${USER_COLUMNS} FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = ?1 AND s.expires_at > ?2`,
      params: (hash, now) => [hash, now],
      callerOf: (row) => ({ user: userOf(row), credential: "session" }),
      identityOf: (caller) => caller.user?.id,
    },
  ],
]);

export function registerCredentialLookup(kind: TokenKind, lookup: CredentialLookup): void {
  lookups.set(kind, lookup);
}

export function lookupFor(kind: CredentialKind): CredentialLookup | undefined {
  return lookups.get(kind);
}
