// The ProjectRoom's render state machine as pure transitions (worker/renders/room/render-transitions.ts), on plain values:
// each returns the next render and the line it tells, and leaves the render it was given as it was.
import { describe, expect, it } from "vitest";
import type { RenderPlan } from "../../core/protocol/render-plan.ts";
import { parseRenderOptions } from "../../core/render/render-options.ts";
import type { RoomRender } from "../../worker/renders/state.ts";
import { ended, isLive, planned, progressAfter, requeued, segmentDone, segmentTaken, taken, withLines } from "../../worker/renders/room/render-transitions.ts";

const parsed = parseRenderOptions({});
if (!parsed.ok) throw new Error(parsed.error);

function render(over: Partial<RoomRender> = {}): RoomRender {
  return {
    id: "r1", userId: "u1", slug: "demo", status: "queued", startedAt: 1000, doneAt: null, filename: "demo.mp4",
    options: parsed.ok ? parsed.options : (undefined as never), lastLine: "", progress: null, error: null, size: null, ...over,
  };
}

const plan: RenderPlan = {
  composition: "index.html", frames: 90, fps: { num: 30, den: 1 }, fpsText: "30", durationSeconds: 3, width: 1920, height: 1080, audio: [], findings: [],
};
const ranges = [
  { index: 0, fromFrame: 0, toFrame: 30 },
  { index: 1, fromFrame: 30, toFrame: 60 },
  { index: 2, fromFrame: 60, toFrame: 90 },
];
const capturing = (frame: number, total: number) => ({ frame, total, fps: 10, stage: "capturing" as const, etaSeconds: 1 });

describe("render transitions", () => {
  it("a node takes a queued render only, and says which attempt it is", () => {
    const queued = render();
    const first = taken(queued, "node-a", 1, 3)!;
    expect(first.render).toMatchObject({ status: "rendering", node: "node-a", attempt: 1 });
    expect(first.line).toBe("render node node-a started the render");
    expect(taken(queued, "node-b", 2, 3)!.line).toBe("render node node-b took the render over (attempt 2 of 3)");
    expect(taken(first.render, "node-b", 1, 3)).toBeNull();
    expect(queued.status).toBe("queued"); // untouched
  });

  it("only a live render of that id takes a node's report", () => {
    expect(isLive(render(), "r1")).toBe(true);
    expect(isLive(render(), "r2")).toBe(false);
    expect(isLive(render({ status: "done" }), "r1")).toBe(false);
    expect(isLive(null, "r1")).toBe(false);
  });

  it("keeps the last line, and progress only when given", () => {
    const first = withLines(render(), ["a", "b"], null);
    expect(first).toMatchObject({ lastLine: "b", progress: null });
    const withProgress = withLines(first, [], { ...capturing(3, 10), percent: 30 });
    expect(withProgress).toMatchObject({ lastLine: "b", progress: { percent: 30 } });
    expect(withLines(withProgress, ["c"]).progress).toEqual(withProgress.progress);
  });

  it("splits a planned render into queued segments, or keeps it whole with one range", () => {
    expect(planned(render(), plan, [{ index: 0, fromFrame: 0, toFrame: 90 }]).segments).toBeUndefined();
    const split = planned(render({ status: "rendering" }), plan, ranges);
    expect(split.plan).toEqual(plan);
    expect(split.segments?.map((s) => [s.index, s.status, s.node, s.attempts])).toEqual([[0, "queued", null, 0], [1, "queued", null, 0], [2, "queued", null, 0]]);
  });

  it("sums segment progress over the whole render, counting done segments whole", () => {
    const split = planned(render({ status: "rendering" }), plan, ranges);
    expect(progressAfter(render(), null, capturing(5, 10)).progress).toMatchObject({ frame: 5, total: 10, percent: 50 });
    const one = progressAfter(split, 0, capturing(15, 30));
    expect(one.progress).toMatchObject({ frame: 15, total: 90 });
    const doneFirst = segmentDone(segmentTaken(one.render, 0, "a", 1, 3)!.render, 0);
    const two = progressAfter(doneFirst.render, 1, capturing(10, 30));
    expect(two.progress).toMatchObject({ frame: 40, total: 90, percent: 44.4, fps: 10 });
    expect(split.segments?.[0]?.progress).toBeUndefined(); // untouched
  });

  it("takes, completes and retries segments; the last one done calls for the join", () => {
    let split = planned(render({ status: "queued" }), plan, ranges);
    const took = segmentTaken(split, 1, "node-b", 1, 3)!;
    expect(took.line).toBe("segment 1: node node-b renders frames 30-59");
    expect(took.render.status).toBe("rendering");
    expect(segmentTaken(split, 7, "node-b", 1, 3)).toBeNull();
    expect(segmentTaken(split, "join", "node-c", 2, 3)!.line).toBe("join: node node-c joins the 3 segments (attempt 2 of 3)");
    split = took.render;
    const again = requeued(split, 1);
    expect(again).toMatchObject({ status: "rendering", retries: 1 });
    expect(again.segments?.[1]?.status).toBe("queued");
    let state = split;
    for (const index of [0, 1, 2]) {
      const step = segmentDone(segmentTaken(state, index, "n", 1, 3)!.render, index);
      expect(step.allDone).toBe(index === 2);
      state = step.render;
    }
    expect(state.segments?.every((s) => s.status === "done")).toBe(true);
  });

  it("queues a whole render again after a lost lease", () => {
    expect(requeued(render({ status: "rendering", retries: 1 }))).toMatchObject({ status: "queued", retries: 2 });
  });

  it("ends done (size, progress at 100 %), failed (the error) or cancelled, offering no download until synced", () => {
    const running = render({ status: "rendering", progress: { ...capturing(80, 90), percent: 88.9 } });
    const done = ended(running, { ok: true, size: 1234 }, 5000);
    expect(done.line).toBe("render done: demo.mp4");
    expect(done.render).toMatchObject({ status: "done", size: 1234, doneAt: 5000, lastLine: done.line, synced: false, progress: { frame: 90, percent: 100, etaSeconds: 0 } });
    const failed = ended(running, { ok: false, error: "boom" }, 5000);
    expect(failed.render).toMatchObject({ status: "failed", error: "boom", lastLine: "render failed: boom" });
    expect(ended(running, { cancelled: true, reason: "cancelled by the user" }, 5000).render.status).toBe("cancelled");
    expect(running.status).toBe("rendering"); // untouched
  });
});
