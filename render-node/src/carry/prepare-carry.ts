// Incremental re-render, set up once the plan has loaded the page: the render's carry key (its options, the
// project's files, the page's scripts, the browser), the carrier every browser asks before encoding a segment,
// and, when the previous render was made under the same key, its output cut back into segments.
import { join } from "node:path";
import { mkdir } from "node:fs/promises";
import type { StudioWindow } from "../../../page-runtime/api.ts";
import type { CaptureSession, LoadedBrowser } from "../capture/capture-session.ts";
import type { ResolvedRender } from "../plan/resolve-render.ts";
import type { Viewport } from "../plan/settle-render.ts";
import { segmentFrames, segmentsOf } from "../../../core/render/segment-plan.ts";
import { carryKey } from "./carry-key.ts";
import { readFingerprint, type CarryManifest } from "./carry-manifest.ts";
import { carriesSegments, cutPreviousSegments } from "./cut-previous-segments.ts";
import { projectFileHashes } from "./project-file-hashes.ts";
import { previousOutputFrame, segmentCarrier, type SegmentCarrier } from "./segment-carrier.ts";

/** The previous render of the same composition, as the node was handed it: its output file and its manifest. */
export interface PreviousRender {
  outputPath: string;
  manifest: CarryManifest;
}

export interface PreparedCarry {
  carrier: SegmentCarrier;
  /** The previous render's segment files by segment index (empty when nothing can be carried). */
  pieces: Promise<ReadonlyMap<number, string>>;
}

/**
 * The carry of a render of composition frames [firstFrame, firstFrame + frames), or null for a format whose
 * segments are not joined by copy (GIF, png-sequence): those neither carry nor leave a manifest.
 */
export async function prepareCarry(session: CaptureSession, input: {
  previous: PreviousRender | null; options: ResolvedRender; viewport: Viewport; alpha: boolean; first: LoadedBrowser;
  firstFrame: number; frames: number;
}): Promise<PreparedCarry | null> {
  const { options, previous } = input;
  if (!carriesSegments(options.format)) return null;
  const [pageKey, browserVersion, files] = await Promise.all([
    session.tools.inPage(input.first.browser.page.evaluate(() => (window as unknown as StudioWindow).__studio.loadKey()), session.tools.bounds.frameMs, input.first.browser.pid,
      () => `composition ${options.composition}: reading the page's load key did not finish in ${session.tools.bounds.frameMs / 1000} s`),
    input.first.browser.browser.version(),
    projectFileHashes(session.projectDir),
  ]);
  const key = carryKey({ browserVersion, options, viewport: input.viewport, alpha: input.alpha, files, pageKey: readFingerprint(pageKey) });
  const size = segmentFrames(options.fps);
  const segments = segmentsOf({ start: input.firstFrame, end: input.firstFrame + input.frames }, options.fps).length;
  const carrier = (from: CarryManifest | null) =>
    segmentCarrier({ key, firstFrame: input.firstFrame, frames: input.frames, segmentFrames: size, segments, previous: from, onLine: session.onLine });
  const none = { pieces: Promise.resolve(new Map<number, string>()) };
  if (!previous) return { carrier: carrier(null), ...none };
  if (previous.manifest.key !== key) {
    session.onLine("nothing carried from the previous render: it was made from other scripts, styles, files, fonts or options");
    return { carrier: carrier(null), ...none };
  }
  // Cut before the capture (a copy of the video stream: a fraction of a second), so a previous output that cannot
  // be cut means carrying nothing rather than a failed render.
  const before = segmentsOf({ start: previous.manifest.firstFrame, end: previous.manifest.firstFrame + previous.manifest.fingerprints.length }, options.fps);
  const dir = join(session.work, "previous-segments");
  let pieces: string[];
  try {
    await mkdir(dir);
    pieces = await cutPreviousSegments(session.tools, {
      previousOutput: previous.outputPath, format: options.format, dir,
      cuts: before.slice(1).map((segment) => previousOutputFrame(previous.manifest, segment.range.start)),
      seconds: (previous.manifest.fingerprints.length * options.fps.den) / options.fps.num,
    });
  } catch (error) {
    session.signal.throwIfAborted();
    session.onLine(`nothing carried from the previous render: its output could not be cut into segments (${(error as Error).message})`);
    return { carrier: carrier(null), ...none };
  }
  return { carrier: carrier(previous.manifest), pieces: Promise.resolve(new Map(before.map((segment, i) => [segment.index, pieces[i]!]))) };
}
