// A render's life as the ProjectRoom's state machine (worker/renders/room/render-transitions.ts, and
// split-transitions.ts for a split render) on plain values, no workerd: each transition returns the next render and
// the effects the room performs, and leaves the render it was given as it was. Also the store's reading of renders
// stored by the code before the phases (render-store.ts).
import { describe, expect, it } from "vitest";
import type { RenderPlan } from "../../core/protocol/render-plan.ts";
import { parseRenderOptions } from "../../core/render/render-options.ts";
import { publicRenderState, queuedRender, type QueuedRender, type RunningRender, type SplitRender } from "../../worker/renders/state.ts";
import { fromStored, type LegacyRender } from "../../worker/renders/room/render-store.ts";
import { isLive, withLines, type Limits } from "../../worker/renders/room/render-step.ts";
import { segmentCompleted, segmentTaken } from "../../worker/renders/room/split-transitions.ts";
import {
  completed,
  ended,
  givenBack,
  leaseLost,
  placed,
  planned,
  progressed,
  runningDeadline,
  taken,
  watched,
  type JobLook,
} from "../../worker/renders/room/render-transitions.ts";

const parsed = parseRenderOptions({});
if (!parsed.ok) throw new Error(parsed.error);
const options = parsed.options;

const limits: Limits = { maxAttempts: 3, leaseMs: 30_000, maxRenderMs: 6000, watchdogMs: 5000 };

function queued(over: Partial<QueuedRender> = {}): QueuedRender {
  return { ...queuedRender({ userId: "u1", slug: "demo" }, options), id: "r1", startedAt: 1000, filename: "demo.mp4", ...over };
}
function running(over: Partial<RunningRender> = {}): RunningRender {
  return { ...taken(queued(), "node-a", 1, 3, 2000)!.render, ...over };
}

const plan: RenderPlan = {
  composition: "index.html", frames: 90, fps: { num: 30, den: 1 }, fpsText: "30", durationSeconds: 3, width: 1920, height: 1080, audio: [], findings: [],
};
const ranges = [
  { index: 0, fromFrame: 0, toFrame: 30 },
  { index: 1, fromFrame: 30, toFrame: 60 },
  { index: 2, fromFrame: 60, toFrame: 90 },
];
const split = (): SplitRender => planned(running(), plan, ranges, "split").render as SplitRender;
const capturing = (frame: number, total: number) => ({ frame, total, fps: 10, stage: "capturing" as const, etaSeconds: 1 });
const job = (over: Partial<JobLook> = {}): JobLook => ({ id: "r1", kind: "render", status: "running", attempts: 1, nodeId: "n1", leaseExpiresAt: 1, error: null, segment: null, ...over });

describe("a render's transitions", () => {
  it("a node takes a queued render only: rendering on that node, its row written, the attempt said", () => {
    const render = queued();
    const first = taken(render, "node-a", 1, 3, 2000)!;
    expect(first.render).toMatchObject({ phase: "rendering", status: "rendering", node: "node-a", attempt: 1, runningSince: 2000 });
    expect(first.effects).toEqual([{ do: "project" }, { do: "tell", lines: ["render node node-a started the render"] }]);
    expect(taken(render, "node-b", 2, 3, 2000)!.render.lastLine).toBe("render node node-b took the render over (attempt 2 of 3)");
    expect(taken(first.render, "node-b", 1, 3, 2000)).toBeNull();
    expect(render.phase).toBe("queued"); // untouched
  });

  it("only a live render of that id takes a node's report", () => {
    expect(isLive(queued(), "r1")).toBe(true);
    expect(isLive(queued(), "r2")).toBe(false);
    expect(isLive(ended(running(), { ok: true, size: 1 }, 3000).render, "r1")).toBe(false);
    expect(isLive(null, "r1")).toBe(false);
  });

  it("keeps the last line, and progress only when given", () => {
    const first = withLines(running(), ["a", "b"], null).render;
    expect(first).toMatchObject({ lastLine: "b", progress: null });
    const withProgress = withLines(first, [], { ...capturing(3, 10), percent: 30 }).render;
    expect(withProgress).toMatchObject({ lastLine: "b", progress: { percent: 30 } });
    expect(withLines(withProgress, ["c"]).render.progress).toEqual(withProgress.progress);
  });

  it("splits a planned render into queued segment jobs (the render job's work done), or keeps it whole with one range", () => {
    const whole = planned(running(), plan, [{ index: 0, fromFrame: 0, toFrame: 90 }], "kept whole");
    expect(whole.render).toMatchObject({ phase: "rendering", plan, lastLine: "kept whole" });
    expect(whole.effects).toEqual([{ do: "tell", lines: ["kept whole"] }]);
    const step = planned(running(), plan, ranges, "split in 3");
    expect(step.render.phase).toBe("split");
    const parts = (step.render as SplitRender).segments.map((s) => [s.index, s.status, s.node, s.attempts]);
    expect(parts).toEqual([[0, "queued", null, 0], [1, "queued", null, 0], [2, "queued", null, 0]]);
    expect(step.effects.map((e) => e.do)).toEqual(["endJob", "queueJobs", "tell", "announce", "wakeNodes"]);
    expect(step.effects[1]).toMatchObject({ jobs: [{ id: "r1.s0", kind: "segment" }, { id: "r1.s1" }, { id: "r1.s2" }] });
  });

  it("sums segment progress over the whole render, counting done segments whole", () => {
    expect(progressed(running(), null, [], capturing(5, 10)).render.progress).toMatchObject({ frame: 5, total: 10, percent: 50 });
    const one = progressed(split(), 0, ["x"], capturing(15, 30));
    expect(one.render.progress).toMatchObject({ frame: 15, total: 90 });
    expect(one.render.lastLine).toBe("segment 0: x");
    const took = segmentTaken(one.render as SplitRender, 0, "a", 1, 3)!.render;
    const doneFirst = segmentCompleted(took, 0, { ok: true, uploaded: true }).render;
    expect(progressed(doneFirst, 1, [], capturing(10, 30)).render.progress).toMatchObject({ frame: 40, total: 90, percent: 44.4, fps: 10 });
  });

  it("takes and completes segments; the last one done queues the join; a failed or empty one fails the render", () => {
    const took = segmentTaken(split(), 1, "node-b", 1, 3)!;
    expect(took.render.lastLine).toBe("segment 1: node node-b renders frames 30-59");
    expect(segmentTaken(split(), 7, "node-b", 1, 3)).toBeNull();
    expect(segmentTaken(split(), "join", "node-c", 2, 3)!.render.lastLine).toBe("join: node node-c joins the 3 segments (attempt 2 of 3)");
    let state = split();
    for (const index of [0, 1, 2]) {
      const step = segmentCompleted(segmentTaken(state, index, "n", 1, 3)!.render, index, { ok: true, uploaded: true });
      expect(step.effects.some((e) => e.do === "queueJobs")).toBe(index === 2);
      state = step.render;
    }
    expect(state.lastLine).toBe("all segments done; queued the join");
    expect(segmentCompleted(took.render, 1, { ok: false, error: "boom" }).effects).toEqual([{ do: "end", outcome: { ok: false, error: "segment 1 failed on node node-b: boom" } }]);
    expect(segmentCompleted(took.render, 1, { ok: true, uploaded: false }).effects).toEqual([{ do: "end", outcome: { ok: false, error: "segment 1: the render node reported success but uploaded no file" } }]);
  });

  it("a node's completion ends the render: done with the file's size, or failed (said, or no file)", () => {
    expect(completed(running(), { ok: true, size: 64 }).effects).toEqual([{ do: "end", outcome: { ok: true, size: 64 } }]);
    // The poster goes with a done outcome; the render ends done with or without one.
    expect(completed(running(), { ok: true, size: 64, poster: { error: "no frame" } }).effects).toEqual([{ do: "end", outcome: { ok: true, size: 64, poster: { error: "no frame" } } }]);
    expect(completed(running(), { ok: true, size: null }).effects).toEqual([{ do: "end", outcome: { ok: false, error: "the render node reported success but uploaded no file" } }]);
    expect(completed(running(), { ok: false }).effects).toEqual([{ do: "end", outcome: { ok: false, error: "the render node reported a failure without a message" } }]);
  });

  it("ends done (size, progress at 100 %), failed (the error) or cancelled, offering no download until synced", () => {
    const render = running({ progress: { ...capturing(80, 90), percent: 88.9 } });
    const done = ended(render, { ok: true, size: 1234 }, 5000);
    expect(done.line).toBe("render done: demo.mp4");
    expect(done.render).toMatchObject({ phase: "ended", status: "done", size: 1234, doneAt: 5000, lastLine: done.line, synced: false, progress: { frame: 90, percent: 100, etaSeconds: 0 } });
    expect(publicRenderState(done.render).downloadUrl).toBeNull();
    expect(publicRenderState({ ...done.render, synced: true }).downloadUrl).toBe("/renders/demo.mp4");
    // Its poster is offered exactly while its download is; a poster that failed says why, the render done all the same.
    const withPoster = ended(render, { ok: true, size: 1234, poster: { stored: true } }, 5000).render;
    expect(publicRenderState(withPoster)).toMatchObject({ posterUrl: null, posterError: null });
    expect(publicRenderState({ ...withPoster, synced: true })).toMatchObject({ posterUrl: "/renders/demo.mp4/poster", posterError: null });
    expect(publicRenderState({ ...withPoster, synced: true, deletedAt: 6000 })).toMatchObject({ downloadUrl: null, posterUrl: null });
    const without = ended(render, { ok: true, size: 1234, poster: { error: "ffmpeg found no frame" } }, 5000).render;
    expect(publicRenderState({ ...without, synced: true })).toMatchObject({ status: "done", downloadUrl: "/renders/demo.mp4", posterUrl: null, posterError: "ffmpeg found no frame" });
    expect(ended(render, { ok: false, error: "boom" }, 5000).render).toMatchObject({ status: "failed", error: "boom", lastLine: "render failed: boom" });
    expect(ended(render, { cancelled: true, reason: "cancelled by the user" }, 5000).render.status).toBe("cancelled");
    expect(ended(split(), { ok: false, error: "x" }, 5000).render.segments?.map((s) => s.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
    expect(render.phase).toBe("rendering"); // untouched
  });
});

describe("a lost lease", () => {
  it("queues a whole render again for another node: the job put back first, its row written, the attempt said; its running time kept", () => {
    const step = leaseLost(running(), job(), {}, limits, 4500);
    expect(step.effects.map((e) => e.do)).toEqual(["requeueJob", "project", "tell", "announce"]);
    expect(step.render).toMatchObject({ phase: "queued", status: "queued", retries: 1, ranMs: 2500 });
    expect(step.render.lastLine).toBe("render: node node-a stopped renewing its lease (no progress for 30 s; attempt 1 of 3); queued again for another node");
  });

  it("queues a segment again (the render goes on split); names the join's node from its key", () => {
    const render = segmentTaken(split(), 2, "node-b", 1, 3)!.render;
    const step = leaseLost(render, job({ id: "r1.s2", kind: "segment", segment: 2 }), {}, limits, 4500);
    expect((step.render as SplitRender).segments[2]!.status).toBe("queued");
    expect(step.render.lastLine).toMatch(/^segment 2: node node-b stopped renewing its lease .*; queued again for another node$/);
    const join = leaseLost(render, job({ id: "r1.join", kind: "join", segment: "join", nodeId: "k9" }), { k9: "node-z" }, limits, 4500);
    expect(join.render.lastLine).toMatch(/^join: node node-z stopped renewing/);
  });

  it("fails the render on the last attempt, naming the node", () => {
    const step = leaseLost(running(), job({ attempts: 3 }), {}, limits, 4500);
    expect(step.effects).toEqual([
      { do: "tell", lines: ["render: node node-a stopped renewing its lease (no progress for 30 s; attempt 3 of 3)"] },
      { do: "end", outcome: { ok: false, error: "render node node-a stopped responding on the last attempt (3 of 3); the render was given up" } },
    ]);
  });

  it("a job given back by its stopping node is queued again the same way, at once: put back in the attempt it holds, nodes woken", () => {
    const step = givenBack(running(), job(), {}, limits, 4500);
    expect(step.effects.map((e) => e.do)).toEqual(["requeueJob", "project", "tell", "announce", "wakeNodes"]);
    expect(step.effects[0]).toMatchObject({ do: "requeueJob", jobId: "r1", nodeId: "n1", attempt: 1 });
    expect(step.render).toMatchObject({ phase: "queued", status: "queued", retries: 1, ranMs: 2500 });
    expect(step.render.lastLine).toBe("render: node node-a gave it back (the node is stopping; attempt 1 of 3); queued again for another node");
    expect(givenBack(running(), job({ attempts: 3 }), {}, limits, 4500).effects.at(-1)).toEqual({
      do: "end",
      outcome: { ok: false, error: "render node node-a was stopped on the last attempt (3 of 3); the render was given up" },
    });
  });

  it("the watchdog finds it in the queue's row", () => {
    const look = watched(running(), { now: 4000, jobs: [job({ leaseExpiresAt: 3999 })] }, limits);
    expect(look.step?.effects[0]).toMatchObject({ do: "requeueJob", jobId: "r1", nodeId: "n1" });
    expect(look.againAt).toBe(8000);
  });
});

describe("the wall clock counts running time, not queue time", () => {
  it("a queued render has no deadline, however long it waits; it shows its place, and says once that it waits", () => {
    const render = queued();
    expect(runningDeadline(render, 6000)).toBeNull();
    const look = watched(render, { now: 1000 + 60_000, jobs: [job({ status: "queued", nodeId: null })], place: { position: 2, etaSeconds: 40 } }, limits);
    expect(look.againAt).toBe(1000 + 60_000 + 5000);
    expect(look.step?.render).toMatchObject({ phase: "queued", queue: { position: 2, etaSeconds: 40 }, waitNoticed: true });
    expect(look.step?.effects).toEqual([
      { do: "tell", lines: ["queued: position 2, a node should take it in about 40 s"] },
      { do: "tell", lines: ["still waiting for a render node to pick this render up"] },
    ]);
    expect(publicRenderState(look.step!.render).queue).toEqual({ position: 2, etaSeconds: 40 });
    expect(placed(look.step!.render as QueuedRender, { position: 2, etaSeconds: 40 })).toBeNull(); // unchanged: nothing said
  });

  it("a running render's deadline counts from its claim and sums its attempts", () => {
    const render = running();
    expect(runningDeadline(render, 6000)).toBe(8000);
    expect(watched(render, { now: 7999, jobs: [job({ leaseExpiresAt: 99_999 })] }, limits).againAt).toBe(8000);
    expect(watched(render, { now: 8000, jobs: [job({ leaseExpiresAt: 99_999 })] }, limits).step?.effects).toEqual([
      { do: "end", outcome: { ok: false, error: "render exceeded the wall-clock limit of 6 s" } },
    ]);
    // 2.5 s on node-a, then back in the queue for a minute, then node-b: 3.5 s left from its claim.
    const requeued = leaseLost(render, job(), {}, limits, 4500).render;
    expect(runningDeadline(requeued, 6000)).toBeNull();
    const again = taken(requeued, "node-b", 2, 3, 64_500)!.render;
    expect(runningDeadline(again, 6000)).toBe(64_500 + 3500);
  });

  it("a withdrawn job cancels the render; a job that ended without its report ends it as the queue says", () => {
    expect(watched(queued(), { now: 2000, jobs: [null] }, limits).step?.effects).toEqual([{ do: "end", outcome: { cancelled: true, reason: "the job was withdrawn" } }]);
    expect(watched(running(), { now: 3000, jobs: [job({ status: "done" })], fileSize: 99 }, limits).step?.effects).toEqual([{ do: "end", outcome: { ok: true, size: 99 } }]);
    expect(watched(running(), { now: 3000, jobs: [job({ status: "failed", error: "oops" })] }, limits).step?.effects).toEqual([{ do: "end", outcome: { ok: false, error: "oops" } }]);
  });
});

describe("renders stored by the previous code are read into their phase", () => {
  const legacy = (over: Partial<LegacyRender>): LegacyRender => ({
    id: "r1", userId: "u1", slug: "demo", status: "queued", startedAt: 1000, doneAt: null, filename: "demo.mp4", options, lastLine: "", progress: null, error: null, size: null, ...over,
  });

  it("queued, rendering (from its POST: no claim time was kept), split, and ended (synced unless it said not)", () => {
    expect(fromStored(legacy({}))).toMatchObject({ phase: "queued", status: "queued", queue: null, retries: 0, ranMs: 0 });
    const whole = fromStored(legacy({ status: "rendering", node: "node-a", attempt: 2, retries: 1 }));
    expect(whole).toMatchObject({ phase: "rendering", node: "node-a", attempt: 2, retries: 1, runningSince: 1000 });
    const segments = [{ index: 0, fromFrame: 0, toFrame: 30, node: "a", attempts: 1, status: "rendering" as const }];
    expect(fromStored(legacy({ status: "rendering", segments, plan }))).toMatchObject({ phase: "split", segments, plan, runningSince: 1000 });
    const done = fromStored(legacy({ status: "done", doneAt: 5000, size: 64, lastLine: "render done: demo.mp4" }));
    expect(done).toMatchObject({ phase: "ended", status: "done", outcome: { ok: true, size: 64 }, synced: true, deletedAt: null, segments: null });
    expect(publicRenderState(done).downloadUrl).toBe("/renders/demo.mp4");
    // A done render from before posters has none, and says so.
    expect(publicRenderState(done)).toMatchObject({ posterUrl: null, posterError: "rendered before renders had posters" });
    expect(fromStored(legacy({ status: "done", doneAt: 5000, size: 64, synced: false, syncTries: 2 }))).toMatchObject({ synced: false, syncTries: 2 });
    expect(fromStored(legacy({ status: "failed", doneAt: 5000, error: "boom" }))).toMatchObject({ outcome: { ok: false, error: "boom" } });
    expect(fromStored(legacy({ status: "cancelled", doneAt: 5000, lastLine: "render cancelled: by you" }))).toMatchObject({ outcome: { cancelled: true, reason: "by you" } });
  });

  it("shows the same public state as the previous code did", () => {
    const old = legacy({ status: "failed", doneAt: 5000, error: "boom", lastLine: "render failed: boom", deletedAt: null });
    expect(publicRenderState(fromStored(old))).toEqual({
      id: "r1", slug: "demo", status: "failed", startedAt: 1000, doneAt: 5000, filename: "demo.mp4", downloadUrl: null, posterUrl: null, posterError: null, lastLine: "render failed: boom",
      eventsUrl: "/api/projects/demo/render/events", format: options.format, quality: options.quality, fps: options.fps, resolution: options.resolution,
      composition: options.composition, progress: null, error: "boom", size: null, segments: null,
    });
  });

  it("a render in the new shape is read as stored", () => {
    const render = running();
    expect(fromStored(render)).toBe(render);
  });
});
