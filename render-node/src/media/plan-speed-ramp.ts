// The render plan's speed ramp of a sound: data-automation's rate lane (core/composition/audio-automation.ts), which
// replaces its data-playback-rate in the mix (core/composition/speed-ramp.ts). Pure.
import { parseAutomation } from "../../../core/composition/audio-automation.ts";
import type { MediaClip } from "../../../page-runtime/api.ts";
import type { RenderPlan } from "../../../core/protocol/render-plan.ts";

export function planSpeedRamp(clip: MediaClip): Pick<RenderPlan["audio"][number], "rateLane"> {
  const rateLane = clip.automation ? parseAutomation(clip.automation, clip.duration).rate : null;
  return rateLane ? { rateLane } : {};
}
