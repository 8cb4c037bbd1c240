import { describe, expect, it } from "vitest";
import { ProgressEventSchema, sumProgress, toRenderProgress } from "./progress.ts";
import { ClaimResponseSchema, ProgressRequestSchema } from "./node-routes.ts";

describe("progress events", () => {
  it("accepts frames within the total and refuses more frames than the total or an unknown stage", () => {
    expect(ProgressEventSchema.safeParse({ frame: 3, total: 6, fps: 10, stage: "capturing", etaSeconds: 0.3 }).success).toBe(true);
    expect(ProgressEventSchema.safeParse({ frame: 7, total: 6, fps: 10, stage: "capturing", etaSeconds: 0 }).success).toBe(false);
    expect(ProgressEventSchema.safeParse({ frame: 1, total: 6, fps: 10, stage: "dancing", etaSeconds: 0 }).success).toBe(false);
  });

  it("adds percent for the render state", () => {
    expect(toRenderProgress({ frame: 1, total: 3, fps: null, stage: "capturing", etaSeconds: null })).toEqual({
      frame: 1, total: 3, percent: 33.3, fps: null, stage: "capturing", etaSeconds: null,
    });
  });

  it("sums a split render's segments: frames and rates add up, ETA follows from both", () => {
    const sum = sumProgress(
      [
        { frame: 100, total: 300, fps: 10, stage: "capturing", etaSeconds: 20 },
        { frame: 50, total: 300, fps: 5, stage: "capturing", etaSeconds: 50 },
      ],
      900,
    );
    expect(sum).toEqual({ frame: 150, total: 900, percent: 16.7, fps: 15, stage: "capturing", etaSeconds: 50 });
    expect(sumProgress([], 900)).toBeNull();
  });

  it("carries reused frames (frame reuse): within the frames done, summed over segments, absent when no node reports it", () => {
    expect(ProgressEventSchema.safeParse({ frame: 3, total: 6, fps: 10, stage: "capturing", etaSeconds: 0, reused: 2 }).success).toBe(true);
    expect(ProgressEventSchema.safeParse({ frame: 3, total: 6, fps: 10, stage: "capturing", etaSeconds: 0, reused: 4 }).success).toBe(false);
    expect(ProgressEventSchema.safeParse({ frame: 3, total: 6, fps: 10, stage: "capturing", etaSeconds: 0, reused: -1 }).success).toBe(false);
    const sum = sumProgress(
      [
        { frame: 100, total: 300, fps: 10, stage: "capturing", etaSeconds: 20, reused: 40 },
        { frame: 50, total: 300, fps: 5, stage: "capturing", etaSeconds: 50 },
        { frame: 30, total: 300, fps: 5, stage: "capturing", etaSeconds: 50, reused: 30 },
      ],
      900,
    );
    expect(sum?.reused).toBe(70);
    expect(sumProgress([{ frame: 1, total: 3, fps: null, stage: "capturing", etaSeconds: null }], 3)).not.toHaveProperty("reused");
  });
});

describe("node routes", () => {
  it("a claimed job defaults its attempt to 1 and refuses unknown kinds", () => {
    expect(ClaimResponseSchema.parse({ job: { id: "j", kind: "segment", slug: "s" } }).job).toMatchObject({ attempt: 1, options: {} });
    expect(ClaimResponseSchema.safeParse({ job: { id: "j", kind: "bake", slug: "s" } }).success).toBe(false);
  });

  it("a progress post carries lines and, optionally, one structured event", () => {
    expect(ProgressRequestSchema.safeParse({ lines: ["x"] }).success).toBe(true);
    expect(ProgressRequestSchema.safeParse({ lines: [], progress: { frame: 1, total: 2, fps: 1, stage: "encoding", etaSeconds: 1 } }).success).toBe(true);
    expect(ProgressRequestSchema.safeParse({ lines: "x" }).success).toBe(false);
  });
});
