// The gain of each sound along the timeline, read once from the loaded page before capture: the page runtime seeks
// the timelines step by step (never plays) and reports each clip's volume, which a GSAP tween or script may change
// (page-runtime/src/runtime/media-volume.ts); here each is traced into a few points for the ffmpeg mix.
import type { CaptureBrowser } from "./launch-capture-browser.ts";
import type { StudioWindow } from "../../page-runtime/api.ts";
import { traceEnvelope, type VolumePoint } from "../../core/composition/volume-envelope.ts";
import { pageBound, withPacedDeadline } from "./paced-deadline.ts";

/** Samples over all clips at most: long or many clips are sampled more sparsely rather than seeking without bound. */
const MAX_SAMPLES = 20_000;

/**
 * One envelope per info().audio entry (times from the clip's start), empty where the gain stays at data-volume.
 * `fps` sets the step (a frame, at most 1/60 s); `clipSeconds` is all clips' length together, to bound the samples.
 */
export async function sampleVolumeAutomation(
  browser: CaptureBrowser,
  input: { fps: number; clipStarts: number[]; clipSeconds: number; timelineMs: number; composition: string },
): Promise<VolumePoint[][]> {
  const step = Math.max(1 / Math.min(60, Math.max(1, input.fps)), input.clipSeconds / MAX_SAMPLES);
  const sampled = await withPacedDeadline(
    browser.page.evaluate((s: number) => (window as unknown as StudioWindow).__studio.volumeAutomation(s), step),
    pageBound(input.timelineMs, browser.pid),
    () => `composition ${input.composition}: sampling its audio volume along the timeline did not finish in ${Math.round(input.timelineMs / 1000)} s`,
  );
  return sampled.map((samples, i) => traceEnvelope(samples.map((p) => ({ time: p.time - (input.clipStarts[i] ?? 0), volume: p.volume }))));
}
