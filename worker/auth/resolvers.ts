// Maps a credential kind (told apart by prefix) to the lookup that turns its hash into a caller. The bot and
// node lookups live with their resources and register here, so this middleware never grows per resource.
import type { Db } from "../db/client.ts";
import type { AppVariables } from "../http/context.ts";
import type { TokenKind } from "./tokens.ts";
import { findUserByTokenHash } from "./users.ts";

export type CallerPatch = Partial<Pick<AppVariables, "user" | "bot" | "node" | "credential">>;
export type CredentialResolver = (db: Db, tokenHash: string) => Promise<CallerPatch | null>;

const resolvers = new Map<TokenKind, CredentialResolver>([
  ["user", async (db, hash) => {
    const user = await findUserByTokenHash(db, hash);
    return user ? { user, credential: "token" } : null;
  }],
]);

export function registerCredentialResolver(kind: TokenKind, resolver: CredentialResolver): void {
  resolvers.set(kind, resolver);
}

export function resolverFor(kind: TokenKind): CredentialResolver | undefined {
  return resolvers.get(kind);
}
