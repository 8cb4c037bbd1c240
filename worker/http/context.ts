// The Hono environment shared by every route: bindings plus what the auth middleware learned about the caller.
import type { Env } from "../env.ts";

export interface User {
  id: string;
  name: string;
  email: string | null;
  avatarUrl: string | null;
  provider: string;
  createdAt: number;
}

/** A bot of the idea board: writes with its own key, owned by the user who issued it. */
export interface Bot {
  id: string;
  name: string;
  ownerId: string;
}

/** A render node, authenticated by its node key. */
export interface RenderNode {
  id: string;
  name: string;
}

/**
 * How the caller proved who they are; the idea board tells humans from bots by this. "oauth": an MCP client's
 * OAuth grant, acting as the person within its scopes (worker/oauth/); it reaches REST routes only through /mcp.
 */
export type Credential = "token" | "session" | "bot" | "node" | "oauth";

export interface AppVariables {
  user: User | null;
  bot: Bot | null;
  node: RenderNode | null;
  credential: Credential | null;
  /** Why no caller was recognised, for the 401 message of routes that require one. */
  authProblem: string;
  /** The raw token the caller presented, when it is a valid personal token (docs examples echo it). */
  token: string | null;
  /** The scopes of an OAuth grant (credential "oauth"); empty for every other credential, which has no scopes. */
  scopes: readonly string[];
  /** This request's id in the log and in the X-Request-Id answer header (worker/http/request-log.ts). */
  requestId: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: AppVariables;
}
