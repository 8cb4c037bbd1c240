// The render's sound: every audio clip of the plan mixed into one track file, encoded with the output's own audio
// codec and exactly the video's length. It needs no frame, so a whole render mixes it while the browsers capture
// (render-project.ts) and the join after the last frame only copies it in (join-segments.ts).
import { join, resolve, sep } from "node:path";
import { missingAssetFinding } from "../../../core/browser/missing-asset.ts";
import { makeFinding, strictFailure, type Finding } from "../../../core/protocol/finding.ts";
import { audioTrackName, buildAudioMixArgs, buildAudioTrackArgs, type AudioClip } from "./build-audio-mix-args.ts";
import { ENCODER_SETTINGS } from "../encode/build-encode-args.ts";
import type { Format, Quality } from "../../../core/render/render-options.ts";
import type { RenderPlan } from "../../../core/protocol/render-plan.ts";
import type { StageTools } from "../system/stage-tools.ts";
import { isFile } from "../system/is-file.ts";
import { encodeBound } from "../bounds/stage-bounds.ts";

/** The mixed track, ready to be copied into the output. */
export interface AudioTrack {
  path: string;
  /** Clips in the mix (for the log). */
  clips: number;
}

export interface MixAudioInput {
  projectDir: string;
  format: Format;
  quality: Quality;
  plan: RenderPlan;
  /** Scratch folder the track is written into. */
  work: string;
  strict: boolean;
  /** ffmpeg, ffprobe, the bounds and the job's signal. */
  tools: StageTools;
  onLine: (line: string) => void;
  onFinding: (finding: Finding) => void;
}

/** Mixes the plan's playable clips into `work`; null when the output has no sound (a GIF, no clip with audio). */
export async function mixAudioTrack(input: MixAudioInput): Promise<AudioTrack | null> {
  if (input.format === "gif") return null;
  const clips = await playableClips(input);
  // A range render's mix runs on the composition's clock to the range's end, then is cut to the range.
  const { plan } = input;
  const fromSeconds = ((plan.firstFrame ?? 0) * plan.fps.den) / plan.fps.num;
  const mix = buildAudioMixArgs(clips, fromSeconds + plan.durationSeconds, fromSeconds);
  if (!mix) return null;
  const path = join(input.work, audioTrackName(input.format));
  input.onLine(`mixing ${clips.length} audio clip${clips.length === 1 ? "" : "s"}`);
  const args = buildAudioTrackArgs(mix, ENCODER_SETTINGS[input.format][input.quality].audio, path);
  const { tools } = input;
  // The mix runs from the composition's start, a range's too: bounded by the seconds it goes through.
  const bound = { ms: encodeBound(tools.bounds, fromSeconds + plan.durationSeconds), stage: "encoding: mixing the audio" };
  await tools.run(tools.binaries.ffmpeg, args, { bound }).done;
  return { path, clips: clips.length };
}

/** The plan's audio clips that exist in the project and have sound, with their channel counts, in plan order. */
async function playableClips(input: MixAudioInput): Promise<AudioClip[]> {
  const root = resolve(input.projectDir);
  const found: { clip: RenderPlan["audio"][number]; file: string }[] = [];
  for (const clip of input.plan.audio) {
    const file = resolve(root, clip.src);
    if (!file.startsWith(root + sep)) {
      input.onFinding(makeFinding("media-not-project-file", input.plan.composition, `audio ${clip.src} is not a project file; left out of the mix`));
      continue;
    }
    if (!(await isFile(file))) {
      // Normally already reported when the page asked for it; said again here in case it never did.
      const finding = missingAssetFinding({ path: clip.src, referrer: null, status: 404 });
      input.onFinding(finding);
      if (input.strict) throw strictFailure(finding);
      continue;
    }
    found.push({ clip, file });
  }
  // One ffprobe per clip, all at once: each is mostly process start-up.
  const channels = await Promise.all(found.map(({ file }) => audioChannels(input.tools, file)));
  return found.flatMap(({ clip, file }, i): AudioClip[] => {
    if (clip.kind === "video" && channels[i] === 0) return [];
    return [{
      file, start: clip.start, duration: clip.duration ?? undefined, mediaStart: clip.mediaStart, playbackRate: clip.playbackRate, rateLane: clip.rateLane, volume: clip.volume, channels: channels[i],
      volumeKeyframes: clip.volumeKeyframes, fadeIn: clip.fadeIn, fadeOut: clip.fadeOut, effects: clip.effects,
    }];
  });
}

/** Channels of the file's first audio stream; 0 when it has none (a silent video). */
async function audioChannels(tools: StageTools, file: string): Promise<number> {
  const args = ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=channels", "-of", "csv=p=0", file];
  const out = await tools.run(tools.binaries.ffprobe, args, { bound: { ms: tools.bounds.encodeMs, stage: "probing a clip's audio" } }).done;
  const channels = Number.parseInt(out.trim(), 10);
  return Number.isFinite(channels) ? channels : out.trim() ? 2 : 0;
}
