// Reads configuration from the environment, failing loudly (500 with a message) where a value is required.
import type { Env } from "../env.ts";
import { ApiError } from "./errors.ts";

export function tokenSecret(env: Env): string {
  if (!env.TOKEN_SECRET || env.TOKEN_SECRET.length < 16) {
    throw new ApiError(500, "server misconfigured: TOKEN_SECRET must be set (at least 16 characters)");
  }
  return env.TOKEN_SECRET;
}

export function loginFlags(env: Env) {
  return {
    github: Boolean(env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET),
    google: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
    dev: env.DEV_LOGIN === "true",
  };
}

export function maxFileBytes(env: Env): number {
  const n = Number(env.MAX_FILE_BYTES);
  return Number.isFinite(n) && n > 0 ? n : 100 * 1024 * 1024;
}
