import type { Context } from "hono";
import type { AppEnv } from "./context.ts";
import { apiOrigin } from "./origins.ts";

/** The API's base URL for links we hand out: from BASE_URL, never from the request's Host header. */
export function baseUrlOf(c: Context<AppEnv>): string {
  return apiOrigin(c.env);
}
