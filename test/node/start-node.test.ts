// `npm run node` (scripts/start-node.ts): more local nodes against a running studio, each with a key made for it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexHtml, SUB_HTML } from "../../render-node/test/make-test-project.ts";
import { isAlive, listDescendants } from "../../render-node/test/inspect-video.ts";
import { startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { preparedDataDir } from "../studio-data.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";

let work = "";
let studio: RunningStudio;
const started: ChildProcess[] = [];

function npmRunNode(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [join(ROOT, "scripts", "start-node.ts")], {
    cwd: ROOT,
    env: { ...process.env, NODE_CONCURRENCY: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return { child, output: () => out, exited };
}

async function until(what: string, check: () => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "studio-start-node-"));
  studio = await startStudio({ port: 26_000 + Math.floor(Math.random() * 2000), dataDir: await preparedDataDir(join(work, "data")), prepared: true, renderNode: false });
}, 120_000);

afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
  await studio?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("npm run node", () => {
  it("refuses to start without a studio, saying how to start one", async () => {
    const run = npmRunNode({ STUDIO_URL: "http://127.0.0.1:1" });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("no studio answers at http://127.0.0.1:1: start it first with npm start");
  });

  it("two commands, two nodes with keys of their own, and they render; SIGTERM stops the node with its runner", async () => {
    const env = { STUDIO_URL: studio.url, STUDIO_DATA: join(work, "data") };
    const a = npmRunNode({ ...env, NODE_ID: "extra-a", NODE_NAME: "extra-a" });
    const b = npmRunNode({ ...env, NODE_ID: "extra-b" });
    await until("both nodes to start", () => a.output().includes("render node extra-a:") && b.output().includes("render node extra-b:"), 90_000);
    const keyOf = (out: string) => /render node key "([\w.-]+)" made for this node \(shown once; NODE_KEY=(stn_[\w-]+) reuses it\)/.exec(out);
    expect(keyOf(a.output())?.[1]).toBe("extra-a");
    expect(keyOf(b.output())?.[1]).toMatch(/^local-[\w.-]+-[0-9a-f]{6}$/);
    expect(keyOf(a.output())?.[2]).not.toBe(keyOf(b.output())?.[2]);

    const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "nodes" }) });
    const { token } = (await login.json()) as { token: string };
    const call = (method: string, path: string, body?: string, type = "application/json") =>
      fetch(`${studio.url}${path}`, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": type }, body });
    expect((await call("POST", "/api/projects", JSON.stringify({ name: "Extra", html: indexHtml(1, 0.5) }))).status).toBe(201);
    expect((await call("PUT", "/api/projects/extra/files/compositions/sub.html", SUB_HTML, "text/html")).status).toBe(200);
    const render = (await (await call("POST", "/api/projects/extra/render?wait=1", JSON.stringify({ quality: "draft" }))).json()) as { status: string; lines: string[] };
    expect(render.status, render.lines.join("\n")).toBe("done");
    expect(a.output() + b.output()).toMatch(/done: 30 frames/);

    // The runner passes SIGTERM on; the node stops and nothing of it is left.
    const nodes = listDescendants(a.child.pid!);
    expect(nodes.length).toBeGreaterThan(0);
    a.child.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    await until("the node process to be gone", () => nodes.every((pid) => !isAlive(pid)), 10_000);
    b.child.kill("SIGTERM");
    await b.exited;
  }, 240_000);
});
