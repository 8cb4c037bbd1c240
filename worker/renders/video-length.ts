// The longest video one render may make: MAX_VIDEO_SECONDS of video (default one hour). A composition's length is
// its author's to choose, so without this a `data-duration="360000"` would queue thousands of segment jobs and hold
// render nodes until the wall-clock limit. The node's plan says how many frames the render has; the ProjectRoom
// refuses a longer plan before any segment is queued, with a line naming the limit.
import type { RenderPlan } from "../../core/protocol/render-plan.ts";
import { configOf } from "../config/config-of.ts";
import type { Env } from "../env.ts";

/** MAX_VIDEO_SECONDS: by default the composition limit (core/composition/size-limits.ts); an operator may set a lower one. */
export function maxVideoSeconds(env: Env): number {
  return configOf(env).MAX_VIDEO_SECONDS;
}

/** Why the plan is too long to render, or null. The length is frames at the plan's rate (not its own duration field). */
export function videoTooLong(env: Env, plan: Pick<RenderPlan, "frames" | "fps" | "fpsText">): string | null {
  const limit = maxVideoSeconds(env);
  const seconds = (plan.frames * plan.fps.den) / plan.fps.num;
  if (seconds <= limit) return null;
  return `the video would be ${Number(seconds.toFixed(1))} s long (${plan.frames} frames at ${plan.fpsText} fps); one render makes at most ${limit} s of video (MAX_VIDEO_SECONDS)`;
}
