// The quote's arithmetic and the actual use at a render's end, on plain values: a long render with free nodes is
// quoted split (its node seconds above its wall seconds), a GIF whole, a composition without a length unknown; the
// actual node seconds sum the jobs a node ran, an open job running to the end.
import { describe, expect, it } from "vitest";
import { actualUse } from "../../worker/renders/actual-use.ts";
import { quoteOf } from "../../worker/renders/quote-estimate.ts";
import type { FarmModel } from "../../worker/renders/split-plan.ts";

const model: FarmModel = { segmentOverheadS: 3, framesPerSecond1080p: 15, joinPerVideoSecondS: 0.075, maxSegments: 8 };
const queue = { position: 1, etaSeconds: null };
const root = { width: 1920, height: 1080, durationSeconds: 60 };

describe("quoteOf", () => {
  it("quotes a minute at 1080p on four free nodes split in four: the wall time falls, the node time grows by the overheads and the join", () => {
    const quote = quoteOf({ root, fps: 30, options: { resolution: null, format: "mp4" }, freeNodes: 4, model, queue });
    // 1800 frames at 15 a second: 120 s whole; split: 3 + 450/15 + 60 × 0.075 = 37.5 s; node time 120 + 4 × 3 + 4.5.
    expect(quote).toMatchObject({ frames: 1800, width: 1920, height: 1080, segments: 4, wallSeconds: 37.5, renderSeconds: 136.5, reason: null });
  });

  it("keeps a GIF whole, at its scaled-down size", () => {
    const quote = quoteOf({ root: { ...root, durationSeconds: 4 }, fps: 15, options: { resolution: null, format: "gif" }, freeNodes: 4, model, queue });
    expect(quote).toMatchObject({ frames: 60, width: 720, height: 405, segments: 1 });
    expect(quote.renderSeconds).toBe(quote.wallSeconds);
  });

  it("says why it cannot count frames rather than guess", () => {
    const quote = quoteOf({ root: { ...root, durationSeconds: null }, fps: 30, options: { resolution: "square", format: "mp4" }, freeNodes: 1, model, queue });
    expect(quote).toMatchObject({ frames: null, width: 1080, height: 1080, renderSeconds: null, wallSeconds: null, segments: null });
    expect(quote.reason).toMatch(/no data-duration/);
  });
});

describe("actualUse", () => {
  it("sums the node time of every job a node ran; an open job runs to the end; none ran: nothing used", () => {
    const jobs = [
      { startedAt: 1000, finishedAt: 3000 }, // the planning job
      { startedAt: 3000, finishedAt: 13000 },
      { startedAt: 3500, finishedAt: 12500 },
      { startedAt: 13000, finishedAt: null }, // the join, ended with the render
    ];
    expect(actualUse(jobs, { doneAt: 15000, ranMs: 14000 })).toEqual({ renderSeconds: 2 + 10 + 9 + 2, wallSeconds: 14 });
    expect(actualUse([{ startedAt: null, finishedAt: null }], { doneAt: 15000, ranMs: 0 })).toBeNull();
  });
});
