// The poster's moment as a plan carries it: settled from the root's data-poster-time, and bounded where a node posts
// it (a plan comes from a render node, which the Worker does not trust: core/protocol/render-plan.ts).
import { describe, expect, it } from "vitest";
import { POSTER_WHY_MAX_LENGTH, RenderPlanSchema } from "../protocol/render-plan.ts";
import { settlePosterMoment } from "./poster-time.ts";

const output = { frames: 60, fps: 30, durationSeconds: 2, firstFrame: 0 };

function plan(poster: unknown) {
  return {
    composition: "index.html", frames: 60, fps: { num: 30, den: 1 }, fpsText: "30", durationSeconds: 2,
    width: 320, height: 180, audio: [], findings: [], poster,
  };
}

describe("the poster's moment in the plan", () => {
  it("quotes a long invalid data-poster-time cut short, so the plan still carries it", () => {
    const moment = settlePosterMoment({ invalid: "x".repeat(5000) }, output);
    expect(moment.frame).toBe(30);
    expect(moment.why.length).toBeLessThanOrEqual(POSTER_WHY_MAX_LENGTH);
    expect(moment.why).toMatch(/^data-poster-time="x{80}…" is not a time within the video, so the default moment$/);
    expect(RenderPlanSchema.safeParse(plan(moment)).success).toBe(true);
  });

  it("refuses a plan whose poster frame is past its last frame, or whose reason is unbounded", () => {
    expect(RenderPlanSchema.safeParse(plan({ frame: 59, seconds: 1.96, why: "the default moment" })).success).toBe(true);
    const past = RenderPlanSchema.safeParse(plan({ frame: 60, seconds: 2, why: "the default moment" }));
    expect(past.success).toBe(false);
    expect(past.error?.issues[0]?.path).toEqual(["poster", "frame"]);
    expect(RenderPlanSchema.safeParse(plan({ frame: 1, seconds: 0.03, why: "y".repeat(POSTER_WHY_MAX_LENGTH + 1) })).success).toBe(false);
  });
});
