// A render node killed with SIGKILL mid-render takes its Chromium trees and ffmpegs with it, and the next node
// start removes the temp folders it left. main.ts runs as a real process with its own TMPDIR, so its children are
// told apart from every other process on the machine by that folder in their command line and by their process
// groups (each Chromium leads one). The control run without setpriv shows the test sees what it claims to.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { ownerFolderName, processStartTime } from "../src/system/scratch-dirs.ts";
import { startNode, startStudio, type Seen } from "./fake-studio.ts";
import { makeTestProject } from "./make-test-project.ts";
import { isAlive, listDescendants } from "./inspect-video.ts";

interface Proc {
  pid: number;
  pgid: number;
  cmdline: string;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z") return null;
    return { pid, pgid: Number(fields[2]), cmdline: readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ") };
  } catch {
    return null;
  }
}

/** Live processes in one of `groups` or whose command line names `marker` (the node's private TMPDIR). */
function survivors(groups: Set<number>, marker: string): Proc[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProc(Number(name)))
    .filter((p): p is Proc => p !== null && (groups.has(p.pgid) || p.cmdline.includes(marker)));
}

async function waitFor(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts a 30 s render on a node with its own TMPDIR and waits for capture to begin. */
async function renderingNode(extraEnv: Record<string, string> = {}) {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg, { duration: 30 });
  const studio = await startStudio(project, { format: "mp4", quality: "draft" });
  cleanups.push(studio.close);
  const tmp = await mkdtemp(join(tmpdir(), "studio-killed-"));
  cleanups.push(() => rm(tmp, { recursive: true, force: true }));
  const env = { TMPDIR: tmp, CHROME_PATH: binaries.chrome, NODE_CONCURRENCY: "2", ...extraEnv };
  const node = startNode(studio.url, env);
  cleanups.push(() => node.child.kill("SIGKILL"));
  await waitFor("capture to begin", () => studio.seen.lines.some((l) => /^frame \d+\/900/.test(l)), 60_000);
  return { studio, tmp, env, node, binaries };
}

/** Starts a 30 s render on a node with its own TMPDIR, waits for capture, SIGKILLs the node; returns what it ran. */
async function killMidRender(extraEnv: Record<string, string> = {}) {
  const { studio, tmp, env, node, binaries } = await renderingNode(extraEnv);
  const descendants = () => listDescendants(node.child.pid!).map(readProc).filter((p): p is Proc => p !== null);
  // Past the first segment, which every browser captures into its one encoder (capture/segment-shares.ts): then each
  // browser feeds a chunk encoder of its own.
  // The list that shows both is the one kept: an encoder ends with its segment, so a later look may catch a browser
  // between two.
  let children: Proc[] = [];
  await waitFor("two chunk encoders", () => {
    children = descendants();
    return children.filter((p) => p.cmdline.includes(binaries.ffmpeg) && p.cmdline.includes("ivf")).length === 2;
  }, 60_000);
  // Each Chromium leads its own process group (puppeteer starts it detached); ffmpeg stays in the node's group,
  // which is the test's own, so ffmpegs are found by the TMPDIR in their output path instead.
  const groups = new Set(children.filter((p) => p.pgid === p.pid).map((p) => p.pgid));
  const folder = join(tmp, "studio-node", ownerFolderName(node.child.pid!, processStartTime(node.child.pid!)!));
  const scratch = readdirSync(folder);
  node.child.kill("SIGKILL");
  return { studio, tmp, env, node, children, groups, folder, scratch, binaries };
}

it("kill -9 mid-render: no Chromium or ffmpeg of that node survives, and the next start clears its temp folders", async () => {
  const run = await killMidRender();
  // Two browsers (each a tree of Chromium processes) and two chunk encoders (reading IVF on stdin) were running;
  // an audio mix may run beside them, so the encoders are told apart by their input.
  expect(run.children.filter((p) => p.cmdline.includes("--type=renderer")).length).toBeGreaterThanOrEqual(2);
  expect(run.children.filter((p) => p.cmdline.includes(run.binaries.ffmpeg) && p.cmdline.includes("ivf")).length).toBe(2);
  expect(run.groups.size).toBeGreaterThanOrEqual(2);
  // Its temp folders: the job's download and output, the render's work, one profile per browser.
  expect(run.scratch.filter((name) => name.startsWith("chrome-")).length).toBe(2);
  expect(run.scratch.some((name) => name.startsWith("render-job-"))).toBe(true);

  await waitFor("every child of the killed node to exit", () => run.children.every((p) => !isAlive(p.pid)), 5000);
  expect(survivors(run.groups, run.tmp)).toEqual([]);

  // The folder outlives the node (nothing in it could clean up) ...
  expect(existsSync(run.folder)).toBe(true);
  // ... next to a live process's folder and one named after a live pid with another start time (a reused pid).
  const root = join(run.tmp, "studio-node");
  const live = join(root, ownerFolderName(process.pid, processStartTime(process.pid)!));
  const reused = join(root, ownerFolderName(process.pid, "1"));
  await mkdir(live, { recursive: true });
  await mkdir(reused, { recursive: true });
  const next = startNode(run.studio.url, run.env);
  cleanups.push(() => next.child.kill("SIGKILL"));
  await waitFor("the next node to start", () => next.output().includes("render node test-node"), 30_000);
  expect(existsSync(run.folder)).toBe(false);
  expect(existsSync(reused)).toBe(false);
  expect(existsSync(live)).toBe(true);
  expect(next.output()).toContain(`removed 2 temp folder(s) of node processes that are gone from ${root}`);
});

it("control: without setpriv the same kill leaves the Chromium processes running", async () => {
  const run = await killMidRender({ SETPRIV_PATH: "/nonexistent/setpriv" });
  cleanups.push(() => {
    for (const group of run.groups) {
      try {
        process.kill(-group, "SIGKILL");
      } catch {
        // gone
      }
    }
  });
  await new Promise((r) => setTimeout(r, 2000));
  const left = survivors(run.groups, run.tmp);
  expect(left.filter((p) => p.cmdline.includes("--type=renderer")).length).toBeGreaterThanOrEqual(2);
});

// SIGTERM is how a platform stops a node (a container stopped or replaced, a deploy): the render it holds is not the
// user's failure. The node gives it back at once (POST .../release, naming the attempt it claimed), so the Worker
// queues it again for another node without waiting out the lease; it reports no failure, kills its browsers and exits.
it("SIGTERM mid-render: the render is given back at once, not reported failed, and the node exits", async () => {
  const { studio, node } = await renderingNode({ NODE_CONCURRENCY: "1" });
  await expectGivenBack(studio, node, "render");
});

/** SIGTERMs the node: it exits 0 having given its job back (attempt 1), never completed. */
async function expectGivenBack(studio: { seen: Seen }, node: ReturnType<typeof startNode>, kind: string) {
  const exited = new Promise<number | null>((resolve) => node.child.once("exit", (code) => resolve(code)));
  node.child.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(studio.seen.complete).toBeNull();
  expect(studio.seen.released).toEqual({ body: { reason: "the render node is stopping" }, attempt: "1" });
  expect(node.output()).toContain(`given back: the node is stopping; the Worker queued the ${kind} again for another node`);
}

// A snapshot (or check) is given back the same way: the request waiting for it is answered by another node, not
// failed because this one was stopped.
it("SIGTERM mid-snapshot: the snapshot is given back at once, not reported failed, and the node exits", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg, { duration: 30 });
  const at = Array.from({ length: 25 }, (_, i) => i + 0.5);
  // The pictures' uploads are held: on a quick machine the 25 frames are captured before the first progress post
  // reaches the studio, and the job must still be under way (capturing or uploading) when the SIGTERM lands.
  const studio = await startStudio(project, { at, end: false }, undefined, "snapshot", undefined, undefined, 1, { putMs: 120_000 });
  cleanups.push(studio.close);
  const node = startNode(studio.url, { CHROME_PATH: binaries.chrome });
  cleanups.push(() => node.child.kill("SIGKILL"));
  await waitFor("the snapshot to be under way", () => studio.seen.lines.some((l) => l.startsWith("capturing frame")), 60_000);
  await expectGivenBack(studio, node, "snapshot");
  expect(studio.seen.lines.some((l) => l.startsWith("snapshot failed"))).toBe(false);
});
