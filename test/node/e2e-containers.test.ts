// Render nodes as production runs them (STUDIO_NODES=containers): the real Worker (wrangler dev) with
// RENDER_NODE_CONTAINER bound, whose container class starts, stops and replaces instances through the local container
// host, which runs each instance as a real render-node process started as the image starts it. Nothing runs until
// work arrives; a snapshot from cold starts capacity; the minimum instance, stopped cleanly, is started again at
// once; N queued renders scale up to CONTAINER_MAX_INSTANCES and back to CONTAINER_MIN_INSTANCES; an instance with
// no work stops while another works; a node killed with SIGKILL while its claim waits takes no job with it (the
// render queued next goes to the node that replaced it, first attempt); a node killed with SIGKILL mid-render is
// replaced and its render ends done with the same frames as an undisturbed render; a node stopped with SIGTERM
// mid-render gives it back and another node takes it over well within one lease. CONTAINER_SLEEP_AFTER is 2 s and
// CONTAINER_CLAIM_IN_FLIGHT_MS 2 s here so idle instances stop within the test; renders are of a small page (boxPage)
// unless the starter is what is shown.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterComposition } from "../../core/composition/starter.ts";
import { resolveBinaries, type Binaries } from "../../render-node/src/system/resolve-binaries.ts";
import { runTool } from "../../render-node/src/system/run-tool.ts";
import { startRenderNode, startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { preparedDataDir } from "../studio-data.ts";
import { boxPage } from "./box-page.ts";
import { callStudio, waitFor } from "./studio-calls.ts";

const LEASE_MS = 8_000;
/** CONTAINER_SLEEP_AFTER: idle instances stop within the test, each instance looks again this often. */
const SLEEP_AFTER_S = 2;
let studio: RunningStudio;
let binaries: Binaries;
let token = "";
let work = "";

const call = (method: string, path: string, body?: unknown) => callStudio(studio.url, token, method, path, body);
const running = () => studio.containers!.instances().filter((i) => i.running);
const runningNames = () => running().map((i) => i.name).sort();

type Render = { status: string; downloadUrl: string | null; lines: string[] };
const renderOf = async (slug: string) => (await (await call("GET", `/api/projects/${slug}/render`)).json()) as Render;
const renderEnded = (slug: string, timeoutMs = 240_000) =>
  waitFor(`the render of ${slug} to end`, async () => {
    const r = await renderOf(slug);
    return r.status === "done" || r.status === "failed" || r.status === "cancelled" ? r : null;
  }, timeoutMs);

/**
 * A project whose index.html is the starter (1920x1080, blurred glows: what a user gets) or, for renders, a box
 * crossing a 320x180 canvas: about a tenth of the starter's CPU a frame, so the renders here wait on the containers,
 * not on capture.
 */
async function project(name: string, duration: number, page: "starter" | "box" = "box"): Promise<string> {
  const id = name.toLowerCase();
  const html = page === "starter" ? starterComposition({ compositionId: id, title: name, duration }) : boxPage(id, duration);
  expect((await call("POST", "/api/projects", { name, html })).status).toBe(201);
  return id;
}

/** Every decoded video frame's MD5 (ffmpeg's framemd5): equal lists are identical frames. */
async function frameHashes(slug: string, downloadUrl: string): Promise<string[]> {
  const file = join(work, `${slug}-${Date.now()}.mp4`);
  await writeFile(file, new Uint8Array(await (await call("GET", downloadUrl)).arrayBuffer()));
  const text = await runTool(binaries.ffmpeg, ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"], new AbortController().signal).done;
  return text.split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split(",").at(-1)!.trim());
}

beforeAll(async () => {
  binaries = await resolveBinaries();
  work = await mkdtemp(join(tmpdir(), "studio-containers-"));
  studio = await startStudio({
    port: 30_000 + Math.floor(Math.random() * 2000),
    // The run's prepared data folder (migrations, node key) rather than two wrangler runs of its own.
    dataDir: await preparedDataDir(join(work, "data")),
    prepared: true,
    containers: true,
    vars: {
      CONTAINER_MIN_INSTANCES: "1",
      CONTAINER_MAX_INSTANCES: "3",
      CONTAINER_SLEEP_AFTER: `${SLEEP_AFTER_S}s`,
      // A claim's answer crosses loopback in milliseconds: an idle instance need not wait the production 15 s after
      // the last claim anywhere before it may stop.
      CONTAINER_CLAIM_IN_FLIGHT_MS: "2000",
      CONTAINER_NODE_CONCURRENCY: "1",
      // Long enough that a render given back (and taken over at once) is told apart from one whose lease lapsed.
      JOB_LEASE_MS: String(LEASE_MS),
      // Renders stay whole (the farm model never finds a split faster), so the killed render and the undisturbed
      // one are encoded alike and their frames can be compared exactly.
      NODE_FRAMES_PER_SECOND: "1000",
    },
    log: (line) => {
      if (process.env.STUDIO_TEST_LOG) console.log(line);
    },
  });
  const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "containers" }) });
  token = ((await login.json()) as { token: string }).token;
}, 300_000);

afterAll(async () => {
  await studio?.stop();
});

describe("render nodes as containers", () => {
  it("runs no node until work arrives; a snapshot from cold starts one (as the image starts it) and succeeds", async () => {
    const slug = await project("Cold", 1, "starter");
    await new Promise((r) => setTimeout(r, 2000));
    expect(running()).toEqual([]);
    const res = await call("POST", `/api/projects/${slug}/snapshot`, { at: [0.5], end: false });
    const body = (await res.json()) as { ok: boolean; snapshots: { path: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.snapshots.map((s) => s.path)).toContain("snapshots/frame-01-0.500s.png");
    expect(runningNames()).toEqual(["render-node-0"]);
    // The node's health answer: it was started with the image's HEALTH_PORT published, and the Worker's NODE_ID.
    const answer = (await (await fetch(`http://127.0.0.1:${await healthPortOf("render-node-0")}/healthz`)).json()) as { nodeId: string };
    expect(answer.nodeId).toBe("container-render-node-0");
  }, 120_000);

  it("the minimum instance stopped cleanly (SIGTERM, nothing queued) is started again at once, and a check and a preview run", async () => {
    const slug = await project("Browser", 1, "starter");
    const zero = () => studio.containers!.instances().find((i) => i.name === "render-node-0")!;
    for (const what of ["check", "preview"] as const) {
      // Cloudflare may stop an instance at any time (a host moved): one of CONTAINER_MIN_INSTANCES is started again
      // whatever its exit code, without waiting for work; one past the minimum only when work comes.
      const startsBefore = zero().starts;
      for (const i of running()) studio.containers!.kill(i.name, "SIGTERM");
      await waitFor("the minimum instance to be started again", async () => zero().starts > startsBefore && zero().running, 60_000);
      expect(runningNames()).toEqual(["render-node-0"]);
      // The stopped node's claim may still wait in local workerd, which never sees a client go: it is told to claim
      // again when the job comes, never handed it, so the job goes to the node started again.
      const res = await call("POST", `/api/projects/${slug}/${what}`, what === "check" ? {} : undefined);
      expect(res.status, `${what}: ${await res.clone().text()}`).toBe(200);
    }
    expect(await (await call("DELETE", `/api/projects/${slug}/preview`)).json()).toEqual({ stopped: true });
  }, 300_000);

  it("a node killed with SIGKILL while its claim waits takes no job: the render queued next goes at once to the node that replaced it", async () => {
    const slug = await project("AfterKill", 1);
    const zero = () => studio.containers!.instances().find((i) => i.name === "render-node-0")!;
    await waitFor("the minimum instance, idle", async () => runningNames().join() === "render-node-0", 60_000);
    const startsBefore = zero().starts;
    // Its claims wait on the Worker (it has been idle since the previous test's preview); local workerd never sees
    // them go when the process dies.
    expect(studio.containers!.kill("render-node-0", "SIGKILL")).toBe(true);
    const postedAt = Date.now();
    expect((await call("POST", `/api/projects/${slug}/render`, { format: "mp4", quality: "draft" })).status).toBe(202);
    const started = await waitFor("a node to start the render", async () => {
      const r = await renderOf(slug);
      return r.lines.some((l) => / started the render$| took the render over /.test(l)) ? r : null;
    }, 120_000);
    console.log(`SIGKILL while waiting → render started by a live node: ${Date.now() - postedAt} ms (JOB_LEASE_MS ${LEASE_MS})`);
    const done = await renderEnded(slug);
    expect(done.status, done.lines.join("\n")).toBe("done");
    // One start, on the first attempt, by a live node (the minimum instance started again, or another): before, the dead
    // claim took the job, which sat out its lease (LEASE_MS) before the watchdog queued it again.
    expect(done.lines.filter((l) => / started the render$| took the render over | stopped renewing its lease /.test(l)), started.lines.join("\n")).toEqual([
      expect.stringMatching(/^render node \S+\/container-render-node-\d+ started the render$/),
    ]);
    expect(zero().starts).toBeGreaterThan(startsBefore);
  }, 300_000);

  it("three queued renders scale up to the maximum; an instance with no work stops while another works; then back to the minimum", async () => {
    // The long render must outlast the short ones, the claim window and an instance's next look (SLEEP_AFTER_S) by a
    // margin: 1200 frames of the box page, about three times that on a quiet machine.
    const slugs = [await project("Long", 40), await project("ShortA", 1), await project("ShortB", 1)];
    for (const slug of slugs) expect((await call("POST", `/api/projects/${slug}/render`, { format: "mp4", quality: "draft" })).status).toBe(202);
    let peak = 0;
    await waitFor("three instances at once", async () => {
      peak = Math.max(peak, running().length);
      return peak === 3;
    }, 60_000);
    const [shortA, shortB] = [await renderEnded("shorta"), await renderEnded("shortb")];
    expect([shortA.status, shortB.status]).toEqual(["done", "done"]);
    // While the long render still runs, the idle instances stop: all but the long render's and the minimum's.
    const fewer = await waitFor("an idle instance to stop while the long render runs", async () => {
      const r = await renderOf("long");
      if (r.status !== "rendering" && r.status !== "queued") throw new Error(`the long render ended (${r.status}) before any idle instance stopped`);
      return running().length < 3 ? running().length : null;
    }, 60_000);
    expect(fewer).toBeLessThanOrEqual(2);
    // Those that stopped stay stopped while the long render runs: no instance is started again for another's render
    // (each would find nothing to claim and idle out again, a node start every sleepAfter).
    const startsAtStop = new Map(studio.containers!.instances().map((i) => [i.name, i.starts]));
    const stopped = studio.containers!.instances().filter((i) => !i.running).map((i) => i.name);
    expect(stopped.length).toBeGreaterThanOrEqual(1);
    const long = await renderEnded("long");
    expect(long.status).toBe("done");
    for (const instance of studio.containers!.instances().filter((i) => stopped.includes(i.name))) {
      expect({ name: instance.name, starts: instance.starts }).toEqual({ name: instance.name, starts: startsAtStop.get(instance.name) });
    }
    await waitFor("the minimum of one instance", async () => runningNames().join() === "render-node-0", 60_000);
    // And it stays: the minimum is kept however long the queue stays empty (two looks of its own and more).
    await new Promise((r) => setTimeout(r, (2 * SLEEP_AFTER_S + 1) * 1000));
    expect(runningNames()).toEqual(["render-node-0"]);
  }, 420_000);

  it("a node killed with SIGKILL mid-render is replaced, and the render ends done with the frames of an undisturbed render", async () => {
    // A render with its node killed mid-capture (300 frames, so the kill lands mid-capture), and the same page
    // rendered undisturbed as another project while the killed render's lease lapses (nothing renders then): a
    // render of the same project before would be answered from the render cache, or carried from segment by segment,
    // capturing nothing to be killed in. The page differs only in its composition id, which draws nothing.
    const slug = await project("Steady", 10);
    const twin = await project("Undisturbed", 10);
    expect((await call("POST", `/api/projects/${slug}/render`, { format: "mp4", quality: "draft" })).status).toBe(202);
    await waitFor("capture under way", async () => (await renderOf(slug)).lines.some((l) => /frame \d+/.test(l)), 120_000);
    const [victim] = running();
    const startsBefore = victim!.starts;
    expect(studio.containers!.kill(victim!.name, "SIGKILL")).toBe(true);
    expect((await call("POST", `/api/projects/${twin}/render`, { format: "mp4", quality: "draft" })).status).toBe(202);
    const done = await renderEnded(slug, 300_000);
    expect(done.status, done.lines.join("\n")).toBe("done");
    expect(studio.containers!.instances().find((i) => i.name === victim!.name)!.starts).toBeGreaterThan(startsBefore);
    const undisturbed = await renderEnded(twin, 300_000);
    expect(undisturbed.status, undisturbed.lines.join("\n")).toBe("done");
    const undisturbedFrames = await frameHashes(twin, undisturbed.downloadUrl!);
    expect(undisturbedFrames.length).toBe(300);
    expect(await frameHashes(slug, done.downloadUrl!)).toEqual(undisturbedFrames);
    // Gone for the next test too, which must capture: nothing to reuse or carry from.
    expect((await call("DELETE", done.downloadUrl!)).status).toBe(200);
  }, 420_000);

  it("a node stopped with SIGTERM mid-render gives it back: another node takes it over well within one lease", async () => {
    // An always-on node beside the containers (a self-hosted one, docs/deploy.md section 6), so another node waits.
    const standby = startRenderNode(studio.url, studio.nodeKey, { NODE_ID: "standby", NODE_CONCURRENCY: "1" });
    try {
      expect((await call("POST", "/api/projects/steady/render", { format: "mp4", quality: "draft" })).status).toBe(202);
      const started = await waitFor("capture under way", async () => {
        const r = await renderOf("steady");
        return r.lines.some((l) => /frame \d+/.test(l)) ? r : null;
      }, 120_000);
      const holder = started.lines.map((l) => /^render node (\S+) started the render$/.exec(l)?.[1]).find(Boolean)!;
      expect(holder, started.lines.join("\n")).toMatch(/\/(standby|container-render-node-\d+)$/);
      const stoppedAt = Date.now();
      if (holder.endsWith("/standby")) standby.kill("SIGTERM");
      else expect(studio.containers!.kill(holder.split("/container-")[1]!, "SIGTERM")).toBe(true);
      const takenAt = await waitFor("another node to take the render over", async () => ((await renderOf("steady")).lines.some((l) => l.includes("took the render over (attempt 2 of 3)")) ? Date.now() : null), 120_000);
      console.log(`SIGTERM mid-render → taken over by another node: ${takenAt - stoppedAt} ms (JOB_LEASE_MS ${LEASE_MS})`);
      // Without the give-back the job waited for its lease to lapse (LEASE_MS) and the watchdog's next look.
      expect(takenAt - stoppedAt).toBeLessThan(LEASE_MS / 2);
      const done = await renderEnded("steady", 300_000);
      expect(done.lines).toContain(`render: node ${holder} gave it back (the node is stopping; attempt 1 of 3); queued again for another node`);
      expect(done.status, done.lines.join("\n")).toBe("done");
    } finally {
      standby.kill("SIGKILL");
    }
  }, 480_000);
});

/** The local port the host published the instance's HEALTH_PORT on. */
async function healthPortOf(name: string): Promise<number> {
  const answer = (await (await fetch(`${studio.containers!.url}/instances/${name}`)).json()) as { ports: Record<string, number> };
  return answer.ports["8080"]!;
}
