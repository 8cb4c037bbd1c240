// The gain of each sound along the timeline, read once from the loaded page before capture: the page runtime seeks
// the timelines step by step (never plays) and reports each clip's volume, which a GSAP tween or script may change
// (page-runtime/src/runtime/media-volume.ts); here each is traced into a few points for the ffmpeg mix.
import type { CaptureBrowser } from "./launch-capture-browser.ts";
import type { CompositionInfo, MediaClip, StudioWindow } from "../../../page-runtime/api.ts";
import { traceEnvelope, type VolumePoint } from "../../../core/composition/volume-envelope.ts";
import { parseAutomation } from "../../../core/composition/audio-automation.ts";
import type { Bounded } from "../bounds/bounded.ts";
import type { Finding } from "../../../core/protocol/finding.ts";
import { readVolumeAutomation } from "../../../core/protocol/read-page-answers.ts";
import { pageReportFinding } from "../../../core/protocol/read-page-report.ts";

/** Samples over all clips at most: long or many clips are sampled more sparsely rather than seeking without bound. */
const MAX_SAMPLES = 20_000;

/**
 * One envelope per info().audio entry (times from the clip's start), empty where the gain stays at data-volume.
 * `fps` sets the step (a frame, at most 1/60 s); all clips' length together bounds the samples.
 */
export async function sampleVolumeAutomation(
  browser: CaptureBrowser,
  info: CompositionInfo,
  input: { fps: number; totalSeconds: number; bounded: Bounded; composition: string; onFinding: (finding: Finding) => void },
): Promise<VolumePoint[][]> {
  if (info.audio.length === 0) return [];
  const clipSeconds = info.audio.reduce((sum, clip) => sum + Math.min(input.totalSeconds, clip.duration ?? input.totalSeconds), 0);
  const step = Math.max(1 / Math.min(60, Math.max(1, input.fps)), clipSeconds / MAX_SAMPLES);
  const { timelineMs } = input.bounded.bounds;
  const raw: unknown = await input.bounded.inPage(
    browser.page.evaluate((s: number): unknown => (window as unknown as StudioWindow).__studio.volumeAutomation(s), step),
    timelineMs, browser.pid,
    () => `composition ${input.composition}: sampling its audio volume along the timeline did not finish in ${Math.round(timelineMs / 1000)} s`,
  );
  // Parsed (core/protocol/page-report.ts): a forged list is left out with a finding, that sound at its data-volume.
  const { value: sampled, problems } = readVolumeAutomation(raw, info.audio.length);
  for (const problem of problems) input.onFinding(pageReportFinding(input.composition, problem));
  return sampled.map((samples, i) => traceEnvelope(samples.map((p) => ({ time: p.time - (info.audio[i]?.start ?? 0), volume: p.volume }))));
}

/**
 * The render plan's gain fields of a clip: its envelope when a script changes its volume, its fades when it has
 * them. A data-automation volume lane wins over both data-volume and a script, as in HyperFrames.
 */
export function planGain(clip: MediaClip, sampled: VolumePoint[] | undefined) {
  const lane = clip.automation ? parseAutomation(clip.automation, clip.duration).volume : null;
  const envelope = lane ? traceEnvelope(lane) : sampled;
  return {
    ...(envelope && envelope.length > 0 ? { volumeKeyframes: envelope } : {}),
    ...(clip.fadeIn > 0 ? { fadeIn: clip.fadeIn } : {}),
    ...(clip.fadeOut > 0 ? { fadeOut: clip.fadeOut } : {}),
  };
}
