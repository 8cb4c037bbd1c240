// Where the CLI keeps its login: $XDG_CONFIG_HOME/studio/config.json (else ~/.config/studio/config.json), readable
// only by you. STUDIO_TOKEN and STUDIO_URL in the environment win over the file.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { parseJson } from "../../core/parse-text.ts";
import { complain } from "./print.ts";

export interface Login {
  url: string;
  token: string;
}

export const DEFAULT_URL = "http://127.0.0.1:8787";

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "studio", "config.json");
}

/** The saved login, or none: no file yet (never logged in) is none; a file that cannot be read is none, said on stderr. */
export function readSavedLogin(env: NodeJS.ProcessEnv = process.env): Partial<Login> {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") complain(`studio: ignoring the saved login in ${path}: ${String(error)}`);
    return {};
  }
  const json = parseJson(text);
  if (json.ok && typeof json.value === "object" && json.value !== null) return json.value as Partial<Login>;
  complain(`studio: ignoring the saved login in ${path}: ${json.ok ? "not a JSON object" : json.problem}; run studio login again`);
  return {};
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
