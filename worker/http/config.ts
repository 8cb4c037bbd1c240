// Settings several routes share, read from the parsed configuration (worker/config/): nothing here has a default
// or a fallback of its own.
import { configOf } from "../config/config-of.ts";
import type { Env } from "../env.ts";

/** TOKEN_SECRET: required, so a Worker without it never gets this far (worker/config/misconfigured.ts). */
export function tokenSecret(env: Env): string {
  return configOf(env).TOKEN_SECRET;
}

export function loginFlags(env: Env) {
  const config = configOf(env);
  return {
    // The id and secret are set together or not at all (worker/config/setting-rules.ts).
    github: config.GITHUB_CLIENT_ID !== undefined,
    google: config.GOOGLE_CLIENT_ID !== undefined,
    dev: config.DEV_LOGIN,
  };
}

export function maxFileBytes(env: Env): number {
  return configOf(env).MAX_FILE_BYTES;
}
