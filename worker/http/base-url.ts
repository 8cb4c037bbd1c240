import type { Context } from "hono";
import type { AppEnv } from "./context.ts";

/** The base URL the caller used (or BASE_URL when configured), so every link we hand out works for them. */
export function baseUrlOf(c: Context<AppEnv>): string {
  return (c.env.BASE_URL || new URL(c.req.url).origin).replace(/\/+$/, "");
}
