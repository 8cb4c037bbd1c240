// Decodes each <video> of a composition into JPEG frames at the render's frame rate, for the page to show.
import { mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { missingAssetLine } from "../../core/browser/missing-asset.ts";
import type { VideoClip } from "./composition-info.ts";
import { runTool } from "./run-tool.ts";
import { encodeBound, type StageBounds } from "./stage-bounds.ts";

/** Writes <dir>/<index>/000001.jpg… for each video (frame 1 = the clip's first instant); returns frame counts by index. */
export async function extractVideoFrames(options: {
  videos: VideoClip[];
  /** Maps a page URL to a local file, or null when it is not a project file. */
  toFile: (url: string) => string | null;
  totalSeconds: number;
  fpsText: string;
  dir: string;
  ffmpeg: string;
  /** Each clip's decode is bounded like an encode step over the clip's seconds. */
  bounds: StageBounds;
  signal: AbortSignal;
  onLine: (line: string) => void;
}): Promise<number[]> {
  const counts: number[] = [];
  for (const video of options.videos) {
    counts[video.index] = 0;
    const file = video.src ? options.toFile(video.src) : null;
    if (!file) {
      options.onLine(`finding: video ${video.src ?? "(no src)"} is not a project file; it stays blank`);
      continue;
    }
    if (!(await stat(file).then((info) => info.isFile(), () => false))) {
      // ffmpeg would fail the whole render on it: the clip stays blank, with the finding (a strict render fails on it).
      options.onLine(missingAssetLine({ path: decodeURIComponent(new URL(video.src!).pathname).slice(1), referrer: null, status: 404 }));
      continue;
    }
    const out = join(options.dir, String(video.index));
    await mkdir(out, { recursive: true });
    const seconds = Math.max(0, video.duration ?? options.totalSeconds - video.start);
    const args = [
      "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
      "-ss", String(video.mediaStart), "-i", file, "-t", seconds.toFixed(6),
      "-vf", `fps=${options.fpsText}`, "-q:v", "3", "-start_number", "1", join(out, "%06d.jpg"),
    ];
    const bound = { ms: encodeBound(options.bounds, seconds), stage: `extracting the frames of ${decodeURIComponent(new URL(video.src!).pathname).slice(1)}` };
    await runTool(options.ffmpeg, args, options.signal, { bound }).done;
    counts[video.index] = (await readdir(out)).filter((name) => name.endsWith(".jpg")).length;
    options.onLine(`extracted ${counts[video.index]} frames of ${video.src}`);
  }
  return counts;
}
