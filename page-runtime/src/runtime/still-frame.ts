// Frame reuse, the page's half: after seeking from the previous frame's time to this one, can the picture differ?
// The node captures unless every check proves it cannot (then it hands the encoder the previous frame's bytes).
// Checks: every sought timeline (nothing live between the two times), every clip window (no start or end
// between), every video (the same frame shown), composition scripts (none waiting, none ran), the page (no DOM
// change, no CSS animation, no canvas or frame, nothing loading, no animated image), and GSAP outside the
// timelines (nothing playing on the browser's clock). Watchers start with the runtime, before any composition
// script, so nothing a composition does escapes them.
import { page, type TimelineRegistry } from "./page-globals.ts";
import { watchPageActivity } from "./page-activity.ts";
import { watchScriptActivity } from "./script-activity.ts";
import { freeGsapAnimation, timelineMoves } from "./timeline-activity.ts";
import type { Clip } from "./timing.ts";
import { inWindow } from "./clip-clock.ts";

export interface SoughtState {
  timelines: TimelineRegistry;
  /** The local time the runtime seeks timeline `id` to for root time t. */
  localTime(id: string, t: number): number;
  clips: readonly Clip[];
  /** The frame each video shows at t (render mode), as the runtime would set it. */
  videoFrames(t: number): readonly (string | null)[];
}

export interface StillFrame {
  /**
   * Why the picture at `to` may differ from the one at `from` (the previous frame, already shown), or null when
   * it provably cannot. `from` null: a frame with no previous one (always captured); the watchers start afresh.
   * Call after seeking to `to`, once every frame, captured or not, so each look covers exactly one step.
   */
  change(from: number | null, to: number, state: SoughtState): string | null;
}

/** Shown exactly as the runtime's seek decides it (clip-clock.ts: edges within a microsecond count as reached). */
const shown = (clip: Clip, t: number) => inWindow(clip.window, t);

export function watchStillFrames(runtimeUrl: string, gsapBase: string | null): StillFrame {
  const scripts = watchScriptActivity(runtimeUrl, gsapBase);
  const pageActivity = watchPageActivity();
  return {
    change(from, to, state) {
      // Both watchers are read every time, so the next look starts from now whatever this one answers.
      const script = scripts.take();
      const pageMoved = pageActivity.take();
      if (from === null) return "first frame of the range";
      if (!(to > from)) return "not a step forward in time";
      for (const id in state.timelines) {
        const tl = state.timelines[id];
        if (!tl || typeof tl.seek !== "function") continue;
        if (timelineMoves(tl, state.localTime(id, from), state.localTime(id, to))) return `timeline "${id}" is animating`;
      }
      const sought = Object.values(state.timelines);
      const free = freeGsapAnimation(page.gsap, sought);
      if (free) return free;
      for (const clip of state.clips) if (shown(clip, from) !== shown(clip, to)) return "a clip starts or ends";
      const before = state.videoFrames(from);
      const after = state.videoFrames(to);
      for (let v = 0; v < after.length; v++) if (before[v] !== after[v]) return "a video shows its next frame";
      return script ?? pageMoved;
    },
  };
}
