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

/** How the caller proved who they are; the idea board tells humans from bots by this. */
export type Credential = "token" | "session" | "bot" | "node";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    user: User | null;
    credential: Credential | null;
  };
}
