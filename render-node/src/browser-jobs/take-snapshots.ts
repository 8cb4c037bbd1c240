// Snapshots of a project directory: PNG frames at the chosen times, at the composition's real size, plus a
// contact sheet. The page is loaded and seeked exactly as a render loads and seeks it.
import type { StageBounds } from "../bounds/stage-bounds.ts";
import { snapshotFileName, snapshotTimes, CONTACT_SHEET_PATH } from "../../../core/browser/sample-times.ts";
import type { SnapshotOptions } from "../../../core/browser/browser-options.ts";
import { capturePng } from "../capture/capture-png.ts";
import { drawFrame, type DrawRequest } from "../capture/capture-frame.ts";
import { composeContactSheet } from "./compose-contact-sheet.ts";
import { openComposition } from "../browser/open-composition.ts";
import { readPageBackgrounds, useTransparentDefault } from "../browser/page-background.ts";
import { formatFindingLine } from "../../../core/protocol/finding.ts";
import { readShaderTransitions } from "../capture/shader-transitions/read-shader-transitions.ts";
import { captureTransitionFrame, transitionAt } from "../capture/shader-transitions/capture-transition-frame.ts";
import { startBlender, type Blender } from "../capture/shader-transitions/blend-pool.ts";

export interface SnapshotImage {
  /** Project-relative, under snapshots/. */
  path: string;
  png: Buffer;
  /** Composition time; null for the contact sheet. */
  time: number | null;
}

export async function takeSnapshots(input: {
  projectDir: string;
  chrome: string;
  /** Page-load, timeline and seek bounds (default DEFAULT_STAGE_BOUNDS). */
  bounds?: StageBounds | undefined;
  options: SnapshotOptions;
  signal: AbortSignal;
  onLine: (line: string) => void;
  onStage?: ((stage: string) => void) | undefined;
}): Promise<{ images: SnapshotImage[]; width: number; height: number; duration: number }> {
  const stage = input.onStage ?? input.onLine;
  stage("loading the composition in Chromium");
  const opened = await openComposition({ projectDir: input.projectDir, chrome: input.chrome, bounds: input.bounds, preferBeginFrame: true, signal: input.signal, onLine: input.onLine });
  const { info } = opened;
  const images: SnapshotImage[] = [];
  let blender: Blender | null = null;
  try {
    const past = input.options.at?.find((t) => t > info.duration);
    if (past !== undefined) throw new Error(`at ${past} s is past the end of the composition (${info.duration} s)`);
    const times = snapshotTimes(info.duration, input.options);
    // No background on html, body or the root: the PNGs keep the page's transparency (RGBA), as HyperFrames' are.
    const { bare } = await readPageBackgrounds(opened.capture, info.compositionId, info.width, info.height, { file: "index.html", onFinding: opened.onFinding });
    if (bare) await useTransparentDefault(opened.capture);
    input.onLine(
      `composition ${info.compositionId}: ${info.width}x${info.height}, ${info.duration} s; ${times.length} frame${times.length === 1 ? "" : "s"}${bare ? ", transparent background" : ""}`,
    );
    // A time inside a shader transition shows the two scenes blended, as the render's frame there does.
    const transitions = await readShaderTransitions(opened.capture.page, "index.html", (f) => input.onLine(formatFindingLine(f)), false);
    let previous: Buffer | null = null;
    for (const [index, t] of times.entries()) {
      input.signal.throwIfAborted();
      stage(`capturing frame ${index + 1}/${times.length} at ${t.time} s`);
      await opened.seek(t.time);
      const active = transitionAt(transitions, t.time);
      if (active && transitions) {
        blender ??= startBlender();
        const draw = (request: DrawRequest) => drawFrame(opened.capture, { interval: 1000 / 30 }, request);
        previous = await captureTransitionFrame(opened.capture.page, draw, { setup: transitions, ...active }, blender, 0, true);
      } else previous = await capturePng(opened.capture, previous);
      images.push({ path: snapshotFileName(index, t), png: previous, time: t.time });
    }
  } finally {
    await blender?.close();
    await opened.close();
  }
  stage("composing the contact sheet");
  const frames = images.map((image, i) => ({ png: image.png, label: `${i + 1} · ${image.time?.toFixed(3)} s${image.path.includes("-end-") ? " (end)" : ""}` }));
  const sheet = await composeContactSheet(input.chrome, frames, info.width, info.height, input.onLine);
  images.push({ path: CONTACT_SHEET_PATH, png: sheet, time: null });
  return { images, width: info.width, height: info.height, duration: info.duration };
}
