// A small real HTTP server speaking the node job protocol (one render job, handed out once), and the render node
// started as a process against it: what job-loop, node-killed and hang tests drive.
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { isNotFound } from "../src/system/debug-log.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
export const KEY = "rn_test_key";

export interface Seen {
  lines: string[];
  output: Buffer | null;
  outputType: string | undefined;
  /** The finished render's poster the node uploaded, and its type. */
  poster: Buffer | null;
  posterType: string | undefined;
  complete: unknown;
  unauthorized: number;
  /** The render plan the node posted (frames, rate, size, audio). */
  plan?: { frames: number };
  /** The carry manifest the node uploaded beside the output (incremental re-render). */
  manifest?: string;
  /** The node gave the job back (it was stopping): its body and the attempt it named. */
  released?: { body: unknown; attempt: string | undefined };
  /** The previous render's parts the node read (`output`, `manifest`), in order. */
  previousReads: string[];
  /** When the output, poster, manifest and completion arrived whole (performance.now()), and the output was answered. */
  at: Partial<Record<"output" | "outputAnswered" | "poster" | "manifest" | "complete", number>>;
  /** The most project file downloads under way at once. */
  filesAtOnce: number;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((done) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => done(Buffer.concat(parts)));
  });
}

// One render job (or, with `kind`, a snapshot or a join job), handed out once; `cancelWhen` makes a progress post answer
// cancelled: true; `refusePoster` answers the poster's upload with that refusal (e.g. a full storage quota); `carry`
// hands the job a previous render to carry from (its output and manifest; either absent answers 404); `planSegments`
// answers the plan with that many segments (more than one: the render is split, its job ends after the plan); `slow`
// answers the output's upload, or each project file, that much later, and holds a node's upload of a project file
// (a snapshot's picture) `putMs` unless the node goes first; `segmentFiles` are the files a join job
// downloads as its segments, in order.
export async function startStudio(
  projectDir: string, options: Record<string, unknown>, cancelWhen?: (lines: string[]) => boolean, kind: "render" | "snapshot" | "join" = "render",
  refusePoster?: { status: number; error: string },
  carry?: { from: string; output?: Buffer; manifest?: string },
  planSegments = 1,
  slow: { outputMs?: number; fileMs?: number; putMs?: number } = {},
  segmentFiles: string[] = [],
) {
  const seen: Seen = { lines: [], output: null, outputType: undefined, poster: null, posterType: undefined, complete: null, unauthorized: 0, previousReads: [], at: {}, filesAtOnce: 0 };
  let filesUnderWay = 0;
  const wait = (ms = 0) => new Promise((r) => setTimeout(r, ms));
  let handedOut = false;
  let done: () => void = () => {};
  const completed = new Promise<void>((r) => (done = r));
  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(value));
  };
  const server = createServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      seen.unauthorized++;
      return json(res, 401, { error: "unauthorized: bad node key" });
    }
    const url = new URL(req.url ?? "/", "http://x");
    const data = await body(req);
    if (url.pathname === "/api/node/jobs/claim") {
      const claim = JSON.parse(data.toString()) as { kinds: string[] };
      // The node's second loop asks for browser work (snapshot, check, preview); the render loop also takes the
      // farm's segment and join jobs.
      const browserLoop = !claim.kinds.includes("render");
      expect(claim.kinds).toEqual(browserLoop ? ["snapshot", "check", "preview"] : ["render", "segment", "join"]);
      if (handedOut || browserLoop !== (kind === "snapshot")) {
        setTimeout(() => { res.writeHead(204); res.end(); }, 300);
        return;
      }
      handedOut = true;
      return json(res, 200, { job: { id: "job 1", kind, slug: "demo", options, composition: "index.html", leaseMs: 30000, ...(carry ? { carryFrom: carry.from } : {}) } });
    }
    const prefix = "/api/node/jobs/job%201";
    if (url.pathname === `${prefix}/files`) {
      const files = await listFiles(projectDir);
      return json(res, 200, { files: await Promise.all(files.map(async (path) => ({ path, size: (await readFile(join(projectDir, path))).length }))) });
    }
    if (url.pathname.startsWith(`${prefix}/files/`)) {
      if (req.method === "PUT" && slow.putMs) {
        await new Promise<void>((resolve) => {
          const held = setTimeout(resolve, slow.putMs);
          res.once("close", () => {
            clearTimeout(held);
            resolve();
          });
        });
      }
      const path = url.pathname.slice(`${prefix}/files/`.length).split("/").map(decodeURIComponent).join("/");
      seen.filesAtOnce = Math.max(seen.filesAtOnce, ++filesUnderWay);
      await wait(slow.fileMs);
      // A file listed and gone before it was asked for (a test's folder changing under a node it has stopped) is a
      // 404, as the studio answers it; a crash here would be an unhandled rejection outside any test.
      const bytes = await readFile(join(projectDir, path)).catch((error: unknown) => {
        if (isNotFound(error)) return null;
        throw error;
      });
      filesUnderWay--;
      if (!bytes) return json(res, 404, { error: `no file ${path} in the project` });
      res.writeHead(200);
      return res.end(bytes);
    }
    if (url.pathname.startsWith(`${prefix}/segments/`)) {
      const file = segmentFiles[Number(url.pathname.slice(`${prefix}/segments/`.length))];
      if (file === undefined) return json(res, 404, { error: "no such segment" });
      res.writeHead(200);
      return res.end(await readFile(file));
    }
    if (url.pathname === `${prefix}/progress`) {
      seen.lines.push(...(JSON.parse(data.toString()) as { lines: string[] }).lines);
      return json(res, 200, { cancelled: cancelWhen ? cancelWhen(seen.lines) : false });
    }
    if (url.pathname === `${prefix}/plan`) {
      // One segment: the node renders the whole composition itself, as a one-node studio does; more: split.
      const { plan } = JSON.parse(data.toString()) as { plan: { frames: number } };
      seen.plan = plan;
      const size = Math.ceil(plan.frames / planSegments);
      const segments = Array.from({ length: planSegments }, (_, index) => ({ index, fromFrame: index * size, toFrame: Math.min(plan.frames, (index + 1) * size) }));
      return json(res, 200, { segments, cancelled: false });
    }
    if (url.pathname === `${prefix}/output`) {
      expect(Number(req.headers["content-length"])).toBe(data.length);
      seen.output = data;
      seen.outputType = req.headers["content-type"];
      seen.at.output = performance.now();
      await wait(slow.outputMs);
      seen.at.outputAnswered = performance.now();
      return json(res, 200, { ok: true, size: data.length });
    }
    if (url.pathname === `${prefix}/poster`) {
      if (refusePoster) return json(res, refusePoster.status, { error: refusePoster.error });
      seen.poster = data;
      seen.posterType = req.headers["content-type"];
      seen.at.poster = performance.now();
      return json(res, 200, { ok: true, size: data.length });
    }
    if (url.pathname === `${prefix}/manifest`) {
      seen.manifest = data.toString();
      seen.at.manifest = performance.now();
      return json(res, 200, { ok: true, size: data.length });
    }
    if (url.pathname === `${prefix}/previous/output` || url.pathname === `${prefix}/previous/manifest`) {
      seen.previousReads.push(url.pathname.endsWith("output") ? "output" : "manifest");
      const previous = url.pathname.endsWith("output") ? carry?.output : carry?.manifest;
      if (previous === undefined) return json(res, 404, { error: "the previous render is gone" });
      res.writeHead(200);
      return res.end(previous);
    }
    if (url.pathname === `${prefix}/release`) {
      seen.released = { body: JSON.parse(data.toString()), attempt: req.headers["x-job-attempt"] as string | undefined };
      return json(res, 200, { released: true });
    }
    if (url.pathname === `${prefix}/complete`) {
      seen.complete = JSON.parse(data.toString());
      seen.at.complete = performance.now();
      json(res, 200, { ok: true });
      return done();
    }
    json(res, 404, { error: "not found" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, completed, close: () => server.close() };
}

/** main.ts as a process against `url`; `env` adds to (or overrides) the test's environment. */
export function startNode(url: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, STUDIO_URL: url, NODE_KEY: KEY, NODE_ID: "test-node", NODE_CONCURRENCY: "2", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}
