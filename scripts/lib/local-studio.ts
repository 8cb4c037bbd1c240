// Starts the whole studio on this machine: wrangler dev (workerd with local D1, R2, Durable Objects) on a data
// folder, the migrations applied, and a render node with a freshly provisioned key. `npm start` and the
// end-to-end tests both use this, so the tests exercise exactly what a developer runs.
import { retry } from "../../core/retry.ts";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { assertPortFree } from "./check-port.ts";
import { loadLocalSecrets, newNodeKey, saveLocalSecrets, type LocalSecrets } from "./secrets.ts";
import { ROOT, spawnWranglerDev, wrangler } from "./wrangler.ts";
import { buildPageRuntime } from "../../page-runtime/build.ts";

export interface StudioOptions {
  port: number;
  dataDir: string;
  renderNode?: boolean;
  /** Extra Worker variables (e.g. OAuth client ids). */
  vars?: Record<string, string>;
  /** Extra render-node environment. */
  nodeEnv?: Record<string, string>;
  log?: (line: string) => void;
  /** Another Worker entry than wrangler.toml's `main` (a benchmark's wrapper around the studio). */
  entry?: string;
  /** The data folder already went through `prepareDataDir` (the tests copy one prepared folder per studio):
   * skips the two wrangler runs (migrations, node key) that take seconds each. */
  prepared?: boolean;
}

export interface RunningStudio {
  url: string;
  /** The content origin (CONTENT_URL): play pages, project files and share links. */
  contentUrl: string;
  nodeKey: string;
  worker: ChildProcess;
  node: ChildProcess | null;
  stop(): Promise<void>;
}

/** Thrown when wrangler exits before it answers: no later attempt can succeed. */
class ExitedEarly extends Error {}

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const POLL_MS = 150;
  const outcome = await retry(
    async () => {
      if (child.exitCode !== null) throw new ExitedEarly(`wrangler dev exited early:\n${output()}`);
      // A refused connection or a non-2xx answer: not listening (or not ready) yet, asked again.
      const res = await fetch(`${url}/api/health`);
      if (!res.ok) throw new Error(`/api/health answered ${res.status}`);
    },
    { attempts: Math.ceil(timeoutMs / POLL_MS), backoff: { firstMs: POLL_MS, factor: 1 }, retryable: (error) => !(error instanceof ExitedEarly) },
  );
  if (outcome.ok) return;
  if (outcome.error instanceof ExitedEarly) throw outcome.error;
  throw new Error(`studio did not answer within ${timeoutMs} ms:\n${output()}`);
}

function stopChild(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export function startRenderNode(url: string, nodeKey: string, env: Record<string, string> = {}, log?: (l: string) => void): ChildProcess {
  const child = spawn(process.execPath, [join(ROOT, "render-node", "main.ts")], {
    cwd: ROOT,
    env: { ...process.env, STUDIO_URL: url, NODE_KEY: nodeKey, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => log?.(`[node] ${d.toString().trimEnd()}`));
  child.stderr?.on("data", (d: Buffer) => log?.(`[node] ${d.toString().trimEnd()}`));
  return child;
}

/** Makes a data folder ready for `wrangler dev`: the D1 migrations applied and a render-node key registered (once;
 * both kept in the folder). Returns the folder's secrets. */
export async function prepareDataDir(dataDir: string): Promise<LocalSecrets & { nodeKey: string }> {
  const persist = join(dataDir, "wrangler");
  const secrets = loadLocalSecrets(dataDir);
  await wrangler(["d1", "migrations", "apply", "studio", "--local", "--persist-to", persist]);
  if (secrets.nodeKey) return { ...secrets, nodeKey: secrets.nodeKey };
  const { key, sql } = newNodeKey("local");
  await wrangler(["d1", "execute", "studio", "--local", "--persist-to", persist, "--command", sql]);
  saveLocalSecrets(dataDir, { ...secrets, nodeKey: key });
  return { ...secrets, nodeKey: key };
}

/** Throws PortInUseError before anything starts when the port is taken: otherwise wrangler fails to bind while the
 * health check below gets its answer from whatever listens there, and the studio "starts" against a stranger. */
export async function startStudio(options: StudioOptions): Promise<RunningStudio> {
  await assertPortFree(options.port, "127.0.0.1");
  // The Worker bundles the page runtime's built scripts and the node serves them (rewritten only when changed).
  await buildPageRuntime();
  const persist = join(options.dataDir, "wrangler");
  const secrets = options.prepared ? loadLocalSecrets(options.dataDir) : await prepareDataDir(options.dataDir);
  if (!secrets.nodeKey) throw new Error(`${options.dataDir} was not prepared: it has no node key`);
  // The API answers on 127.0.0.1 and user content on localhost: two sites in the browser's eyes, one Worker.
  const vars = {
    DEV_LOGIN: "true",
    TOKEN_SECRET: secrets.tokenSecret,
    BASE_URL: `http://127.0.0.1:${options.port}`,
    CONTENT_URL: `http://localhost:${options.port}`,
    ...options.vars,
  };
  const worker = spawnWranglerDev([
    ...(options.entry ? [options.entry] : []),
    "--ip", "127.0.0.1",
    "--port", String(options.port),
    "--persist-to", persist,
    "--log-level", "warn",
    ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ]);
  let output = "";
  const collect = (d: Buffer) => {
    output += d.toString();
    options.log?.(`[worker] ${d.toString().trimEnd()}`);
  };
  worker.stdout?.on("data", collect);
  worker.stderr?.on("data", collect);
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await waitForHealth(url, worker, () => output);
  } catch (err) {
    await stopChild(worker);
    throw err;
  }
  const node = options.renderNode === false ? null : startRenderNode(url, secrets.nodeKey, options.nodeEnv, options.log);
  return {
    url,
    contentUrl: vars.CONTENT_URL,
    nodeKey: secrets.nodeKey,
    worker,
    node,
    async stop() {
      await Promise.all([stopChild(node), stopChild(worker)]);
    },
  };
}
