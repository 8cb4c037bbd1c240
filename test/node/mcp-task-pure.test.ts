// The pure parts of MCP tasks: task ids name a render, a batch or a refusal and nothing else (made-up ids are not
// found); a render's task status, statusMessage and poll interval (following the ETA: the queue's, the node's, or
// the frames left at the rate so far; bounded 1 to 30 s); a batch's rows; which tools a message calls plainly.
import { describe, expect, it } from "vitest";
import type { BatchState, RenderState } from "../../core/protocol/render-state.ts";
import { plainToolCalls } from "../../worker/mcp/task-calls.ts";
import { taskIdOf, taskRefOf } from "../../worker/mcp/task-id.ts";
import { batchTask, pollIntervalFor, POLL_DEFAULT_MS, POLL_MAX_MS, POLL_MIN_MS, refusedTask, renderTask, secondsLeft } from "../../worker/mcp/task-status.ts";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

function render(over: Partial<RenderState>): RenderState {
  return {
    id: "0b6c", slug: "demo", status: "rendering", startedAt: T0, doneAt: null, filename: "demo_x.mp4", downloadUrl: null, posterUrl: null, posterError: null, lastLine: "",
    eventsUrl: "/e", format: "mp4", quality: "draft", fps: null, resolution: null, composition: "index.html", progress: null, error: null,
    size: null, segments: null, ...over,
  };
}

describe("task ids", () => {
  it("round-trips renders, batches and refusals (UTF-8 messages too), and refuses anything else", () => {
    for (const ref of [{ kind: "render", renderId: "a1-b2" }, { kind: "batch", slug: "my-video", batchId: "3f2a-99" }] as const) expect(taskRefOf(taskIdOf(ref))).toEqual(ref);
    const refusal = { status: 404, body: { error: "no project named café", code: "not_found" }, at: T0 };
    expect(taskRefOf(taskIdOf({ kind: "refused", refusal }))).toEqual({ kind: "refused", refusal });
    const long = taskRefOf(taskIdOf({ kind: "refused", refusal: { status: 400, body: { error: "x".repeat(5000), extra: 1 }, at: T0 } }));
    expect(long).toEqual({ kind: "refused", refusal: { status: 400, body: { error: "x".repeat(1000) }, at: T0 } });
    for (const made of ["", "render", "render.", "render.a.b", "render.../me", "render.a/b", "batch.Bad.1", "batch.ok", "refused.", "refused.!!", "refused.e30", "refused.bnVsbA", "job.1"]) {
      expect(taskRefOf(made), made).toBeNull();
    }
  });
});

describe("a render as a task", () => {
  it("maps statuses and says where it stands", () => {
    expect(renderTask(render({ status: "queued" }), T0)).toMatchObject({ taskId: "render.0b6c", status: "working", statusMessage: "queued", ttl: null, pollInterval: POLL_DEFAULT_MS, createdAt: new Date(T0).toISOString() });
    expect(renderTask(render({ status: "queued", queue: { position: 2, etaSeconds: 40 } }), T0)).toMatchObject({ statusMessage: "queued: place 2 in the queue, a node should take it in about 40 s", pollInterval: 8000 });
    const frames = { frame: 40, total: 120, percent: 33.3, fps: 8, stage: "capturing" as const, etaSeconds: 10 };
    expect(renderTask(render({ progress: frames }), T0)).toMatchObject({ status: "working", statusMessage: "frame 40 of 120 (capturing)", pollInterval: 2000 });
    const done = renderTask(render({ status: "done", doneAt: T0 + 9000, size: 123, downloadUrl: "/renders/demo_x.mp4" }), T0 + 20_000);
    expect(done).toMatchObject({ status: "completed", statusMessage: "done: 123 bytes", lastUpdatedAt: new Date(T0 + 9000).toISOString() });
    expect(done.pollInterval).toBeUndefined();
    expect(renderTask(render({ status: "failed", doneAt: T0, error: "boom" }), T0)).toMatchObject({ status: "failed", statusMessage: "failed: boom" });
    expect(renderTask(render({ status: "cancelled", doneAt: T0 }), T0)).toMatchObject({ status: "cancelled" });
  });

  it("polls at a fifth of the time left, from the best estimate there is, within bounds", () => {
    expect(secondsLeft(render({ status: "queued", queue: { position: 1, etaSeconds: null } }), T0)).toBeNull();
    // No ETA and no fps from the node: the frames left at the rate so far (30 frames in 10 s, 90 left: 30 s).
    expect(secondsLeft(render({ progress: { frame: 30, total: 120, percent: 25, fps: null, stage: "capturing", etaSeconds: null } }), T0 + 10_000)).toBe(30);
    expect(secondsLeft(render({ progress: { frame: 30, total: 120, percent: 25, fps: 45, stage: "capturing", etaSeconds: null } }), T0 + 10_000)).toBe(2);
    expect(pollIntervalFor(null)).toBe(POLL_DEFAULT_MS);
    expect(pollIntervalFor(0)).toBe(POLL_MIN_MS);
    expect(pollIntervalFor(30)).toBe(6000);
    expect(pollIntervalFor(3600)).toBe(POLL_MAX_MS);
  });

  it("a batch counts its rows; a refusal is failed from the start", () => {
    const row = (index: number, status: BatchState["rows"][number]["status"]) => ({ index, name: null, status, renderId: null, filename: null, downloadUrl: null, error: null });
    const batch: BatchState = { id: "b1", slug: "demo", status: "rendering", createdAt: T0, doneAt: null, rows: [row(0, "done"), row(1, "rendering"), row(2, "pending")] };
    expect(batchTask(batch, T0)).toMatchObject({ taskId: "batch.demo.b1", status: "working", statusMessage: "1 of 3 rows done, row 1 rendering" });
    expect(batchTask({ ...batch, status: "failed", doneAt: T0 }, T0)).toMatchObject({ status: "failed", statusMessage: "failed: 1 of 3 rows done, row 1 rendering" });
    expect(refusedTask({ status: 429, body: { error: "too many renders" }, at: T0 })).toMatchObject({ status: "failed", statusMessage: "refused: too many renders", ttl: null });
  });
});

describe("plain calls", () => {
  it("names the tools a message calls without task; a tool called both ways in a batch is a task", () => {
    const call = (name: string, task?: object) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {}, ...(task ? { task } : {}) } });
    expect([...plainToolCalls(call("render"))]).toEqual(["render"]);
    expect([...plainToolCalls(call("render", { ttl: 1000 }))]).toEqual([]);
    expect([...plainToolCalls(call("render", {}))]).toEqual([]);
    expect([...plainToolCalls([call("render"), call("render", {}), call("lint")])]).toEqual(["lint"]);
    expect([...plainToolCalls({ jsonrpc: "2.0", id: 1, method: "tools/list" })]).toEqual([]);
    expect([...plainToolCalls(null)]).toEqual([]);
  });
});
