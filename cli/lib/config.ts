// Where the CLI keeps its login: $XDG_CONFIG_HOME/studio/config.json (else ~/.config/studio/config.json), readable
// only by you. STUDIO_TOKEN and STUDIO_URL in the environment win over the file.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export interface Login {
  url: string;
  token: string;
}

export const DEFAULT_URL = "http://127.0.0.1:8787";

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "studio", "config.json");
}

export function readSavedLogin(env: NodeJS.ProcessEnv = process.env): Partial<Login> {
  try {
    return JSON.parse(readFileSync(configPath(env), "utf8")) as Partial<Login>;
  } catch {
    return {};
  }
}

/** The login to use: the environment first, then the saved file. */
export function currentLogin(env: NodeJS.ProcessEnv = process.env): Partial<Login> {
  const saved = readSavedLogin(env);
  return { url: (env.STUDIO_URL || saved.url || DEFAULT_URL).replace(/\/+$/, ""), token: env.STUDIO_TOKEN || saved.token };
}

export function saveLogin(login: Login, env: NodeJS.ProcessEnv = process.env): string {
  const path = configPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  return path;
}

export function forgetLogin(env: NodeJS.ProcessEnv = process.env): void {
  rmSync(configPath(env), { force: true });
}
