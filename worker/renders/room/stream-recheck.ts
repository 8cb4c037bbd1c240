// The backstop behind a credential's end reaching the rooms (stream-watch.ts): which of the open streams'
// credentials D1's primary still holds valid, asked for all of a room's streams in ONE query (never per stream or per
// event). A token is valid while its hash is the user's current token hash, a session while its row exists and has
// not expired: the same rows the request gate asks about (auth/resolvers.ts). OAuth grants live in the
// authorization server's KV, not in D1: they are not asked here (their end reaches rooms by notification, and the
// MCP render wait checks its grant itself, worker/mcp/render-tools.ts).
import type { StreamCredential } from "../../auth/stream-credential.ts";

const SQL =
  "SELECT 'token' AS kind, token_hash AS id FROM api_tokens WHERE token_hash IN (SELECT value FROM json_each(?1)) " +
  "UNION ALL SELECT 'session' AS kind, id_hash AS id FROM sessions WHERE id_hash IN (SELECT value FROM json_each(?2)) AND expires_at > ?3";

const keyOf = (credential: { kind: string; id: string }) => `${credential.kind}:${credential.id}`;

/** The credentials among `open` that D1 no longer holds valid (OAuth ones are never among them). */
export async function endedCredentials(db: D1Database, open: StreamCredential[], now: number): Promise<StreamCredential[]> {
  const asked = open.filter((c) => c.kind !== "oauth");
  if (asked.length === 0) return [];
  const ids = (kind: string) => JSON.stringify([...new Set(asked.filter((c) => c.kind === kind).map((c) => c.id))]);
  const { results } = await db.prepare(SQL).bind(ids("token"), ids("session"), now).all<{ kind: string; id: string }>();
  const valid = new Set(results.map(keyOf));
  return asked.filter((c) => !valid.has(keyOf(c)));
}
