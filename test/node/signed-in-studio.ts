// One running studio (wrangler dev + a render node) with a signed-in user, for the end-to-end tests of the agent
// tools that need a studio of their own (other variables, no render node); most share one (shared-studio.ts).
// Browser work answers 503 until the node has asked for work, so this waits for the node's first claim.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { preparedDataDir } from "../studio-data.ts";

export interface SignedInStudio extends SignedInUser {
  studio: RunningStudio;
  url: string;
  work: string;
}

export async function startSignedInStudio(name: string, options: { renderNode?: boolean; vars?: Record<string, string> } = {}): Promise<SignedInStudio> {
  const work = await mkdtemp(join(tmpdir(), `studio-${name}-`));
  let nodeUp: () => void = () => {};
  const nodeStarted = new Promise<void>((r) => (nodeUp = r));
  const studio = await startStudio({
    port: 22_000 + Math.floor(Math.random() * 8000),
    dataDir: await preparedDataDir(join(work, "data")),
    prepared: true,
    renderNode: options.renderNode,
    vars: options.vars,
    log: (line) => {
      if (line.includes("[node]") && line.includes("render node")) nodeUp();
      if (process.env.STUDIO_TEST_LOG) console.log(line);
    },
  });
  if (options.renderNode !== false) {
    await nodeStarted;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return { studio, url: studio.url, work, ...(await devSignIn(studio.url, name)) };
}

export interface SignedInUser {
  token: string;
  /** A JSON call with the user's token (or another credential). */
  call(method: string, path: string, body?: unknown, token?: string): Promise<Response>;
}

/** Signs `name` in through the development sign-in, as `npm start`'s walk-through does. */
export async function devSignIn(url: string, name: string): Promise<SignedInUser> {
  const login = await fetch(`${url}/auth/dev/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const token = ((await login.json()) as { token: string }).token;
  const call = (method: string, path: string, body?: unknown, as = token) =>
    fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${as}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { token, call };
}
