// Helpers for the idea-board tests: post ideas, issue bot keys, act as a cookie-holding browser, become admin.
import { env, SELF } from "cloudflare:test";
import { forgetConfig } from "../../worker/config/config-of.ts";
import type { Env } from "../../worker/env.ts";
import type { IdeaRecord } from "../../worker/ideas/records.ts";
import { api, BASE, json } from "./helpers.ts";

/** An idea as the API returns it. */
export type IdeaJson = IdeaRecord;

export async function postIdea(token: string, title: string, body = `${title}, described.`, extra: Record<string, unknown> = {}) {
  const res = await api(token, "POST", "/api/ideas", { title, body, ...extra });
  if (res.status !== 201) throw new Error(`post idea failed: ${res.status} ${await res.text()}`);
  return (await json<{ idea: IdeaJson }>(res)).idea;
}

export async function issueBot(token: string, name: string) {
  const res = await api(token, "POST", "/api/bots", { name });
  if (res.status !== 201) throw new Error(`bot key failed: ${res.status} ${await res.text()}`);
  return json<{ bot: { id: string; name: string }; key: string }>(res);
}

/** A request the way a browser on the dashboard sends it: session cookie, plus whatever Origin headers given. */
export function browser(cookie: string, method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method,
    headers: { Cookie: cookie, "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

type MutableEnv = { ADMIN_USER_IDS?: string; IDEA_WRITE_LIMIT?: string; IDEA_WRITE_WINDOW_SECONDS?: string; MAX_STORAGE_BYTES?: string; MAX_STORED_FILES?: string; BASE_URL?: string; MAX_FILE_BYTES?: string };

/**
 * Sets configuration (admins, limits) for one test: the Worker's fetch handler gets this same env object, and its
 * parsed configuration is dropped so the next request reads the change (and again when restored). Durable Objects
 * have an env object of their own and do not see it.
 */
export function setEnv(values: MutableEnv): () => void {
  const target = env as MutableEnv;
  const before: MutableEnv = { ...target };
  Object.assign(target, values);
  forgetConfig(env as unknown as Env);
  return () => {
    for (const key of Object.keys(values) as (keyof MutableEnv)[]) target[key] = before[key];
    forgetConfig(env as unknown as Env);
  };
}

/** Counts rows of a table straight from D1, to prove a refused write left nothing behind. */
export async function countRows(table: string): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
  return row?.n ?? 0;
}
