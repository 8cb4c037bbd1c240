// The local container host: what Cloudflare's container runtime does for RENDER_NODE_CONTAINER, done on this machine
// with processes (wrangler dev runs Cloudflare containers only through a Docker engine, which these machines lack).
// The Worker's own container class drives it (worker/renders/farm/local-container.ts stands in for `ctx.container`
// and calls this over HTTP); this only starts, signals and watches processes.
//
// An instance is started as the image starts it (render-node/Dockerfile): its CMD, in its WORKDIR's files (the
// repository, which the image copies), with its ENV and the variables the Worker passes (STUDIO_URL, NODE_KEY, …),
// and nothing of this shell's environment but PATH, HOME and TMPDIR. What cannot be the image's here:
//   - `node` is this project's Node (the image copies the same version's binary);
//   - ENV paths that name the image's Debian files (Chromium, ffmpeg, Cloudflare's CA) are left out when absent
//     here: the node then finds its npm-shipped binaries (render-node/src/system/resolve-binaries.ts);
//   - the exposed port (HEALTH_PORT=8080) is published on a free local port, as `docker run -p` would, and bound to
//     127.0.0.1 rather than every interface.
// Routes (JSON): GET /instances; GET /instances/:name; POST /instances/:name/start {env, entrypoint};
// GET /instances/:name/exit?waitMs= (answers when the process exits, or running after the wait);
// POST /instances/:name/signal {signo}.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parseDockerfile } from "./dockerfile.ts";
import { ROOT } from "./wrangler.ts";

/** How the image starts a node: its last stage's CMD, WORKDIR and ENV. */
export interface ImageStart {
  cmd: string[];
  workdir: string;
  env: Record<string, string>;
  /** The port the image exposes for its health endpoint (HEALTH_PORT). */
  healthPort: number;
}

export function readImageStart(dockerfile = join(ROOT, "render-node", "Dockerfile")): ImageStart {
  const stage = parseDockerfile(readFileSync(dockerfile, "utf8")).at(-1);
  if (!stage?.cmd) throw new Error(`${dockerfile}: its last stage has no CMD`);
  return { cmd: stage.cmd, workdir: stage.workdir, env: stage.env, healthPort: Number(stage.env.HEALTH_PORT ?? 8080) };
}

export interface InstanceInfo {
  name: string;
  pid: number | undefined;
  running: boolean;
  /** How many processes this instance has run (a replaced one counts again). */
  starts: number;
  exitCode: number | null;
}

export interface LocalContainerHost {
  url: string;
  instances(): InstanceInfo[];
  /** Sends a signal to an instance's process, as an operator (or the kernel's OOM killer) would; false if none runs. */
  kill(name: string, signal: NodeJS.Signals): boolean;
  stop(): Promise<void>;
}

interface Instance {
  name: string;
  child: ChildProcess | null;
  ports: Record<string, number>;
  starts: number;
  exitCode: number | null;
  /** Resolved when the current process exits. */
  exited: Promise<void>;
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The image's ENV as this machine can honour it (see the header). Pure but for the file checks. */
export function localImageEnv(image: ImageStart, publishedHealthPort: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(image.env)) {
    if (value.startsWith("/") && !existsSync(value)) continue;
    env[name] = value;
  }
  env.HEALTH_PORT = String(publishedHealthPort);
  env.HEALTH_HOST = "127.0.0.1";
  return env;
}

const hostEnv = () => Object.fromEntries(["PATH", "HOME", "TMPDIR"].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function startLocalContainerHost(options: { image?: ImageStart; log?: (line: string) => void } = {}): Promise<LocalContainerHost> {
  const image = options.image ?? readImageStart();
  const instances = new Map<string, Instance>();
  const answerOf = (i: Instance | undefined) => ({ running: !!i?.child, ports: i?.ports ?? {}, ...(i && !i.child && i.exitCode !== null ? { exitCode: i.exitCode } : {}) });

  async function start(name: string, body: Record<string, unknown>): Promise<Instance> {
    const existing = instances.get(name);
    if (existing?.child) return existing;
    const published = await freePort();
    const [command = "node", ...args] = Array.isArray(body.entrypoint) ? (body.entrypoint as string[]) : image.cmd;
    const workerEnv = (body.env ?? {}) as Record<string, string>;
    const child = spawn(command === "node" ? process.execPath : command, args, {
      cwd: ROOT,
      env: { ...hostEnv(), ...localImageEnv(image, published), ...workerEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const instance: Instance = { name, child, ports: { [String(image.healthPort)]: published }, starts: (existing?.starts ?? 0) + 1, exitCode: null, exited: Promise.resolve() };
    instance.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        instance.exitCode = code ?? 128 + (signal ? (SIGNAL_NUMBERS[signal] ?? 1) : 1);
        instance.child = null;
        options.log?.(`[container ${name}] exited (${signal ?? `code ${code}`})`);
        resolve();
      });
    });
    const prefix = (d: Buffer) => options.log?.(`[container ${name}] ${d.toString().trimEnd()}`);
    child.stdout?.on("data", prefix);
    child.stderr?.on("data", prefix);
    instances.set(name, instance);
    options.log?.(`[container ${name}] started (pid ${child.pid}, health on 127.0.0.1:${published})`);
    return instance;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://host");
    const [, root, rawName, action = ""] = url.pathname.split("/");
    const send = (status: number, body: unknown): void => void res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    if (root !== "instances") return send(404, { error: "not found" });
    if (!rawName) return send(200, host.instances());
    const name = decodeURIComponent(rawName);
    const instance = instances.get(name);
    if (req.method === "GET" && action === "") return send(200, answerOf(instance));
    if (req.method === "POST" && action === "start") return send(200, answerOf(await start(name, await readJson(req))));
    if (req.method === "GET" && action === "exit") {
      const waitMs = Math.min(Number(url.searchParams.get("waitMs")) || 0, 60_000);
      if (instance?.child) await Promise.race([instance.exited, new Promise((r) => setTimeout(r, waitMs))]);
      return send(200, answerOf(instance));
    }
    if (req.method === "POST" && action === "signal") {
      const signo = Number((await readJson(req)).signo);
      if (instance?.child) instance.child.kill(signo);
      return send(200, answerOf(instance));
    }
    return send(404, { error: `no route ${req.method} ${url.pathname}` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log?.(`[containers] ${req.method} ${req.url} failed: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" }).end(JSON.stringify({ error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host: LocalContainerHost = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    instances: () => [...instances.values()].map((i) => ({ name: i.name, pid: i.child?.pid, running: !!i.child, starts: i.starts, exitCode: i.exitCode })),
    kill(name, signal) {
      const child = instances.get(name)?.child;
      return child ? child.kill(signal) : false;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // As Cloudflare would on a deploy: SIGTERM, then SIGKILL for a process that lingers.
      await Promise.all(
        [...instances.values()].map(async (i) => {
          if (!i.child) return;
          const timer = setTimeout(() => i.child?.kill("SIGKILL"), 5000);
          i.child.kill("SIGTERM");
          await i.exited;
          clearTimeout(timer);
        }),
      );
    },
  };
  return host;
}
