// Defence in depth for the Worker's check (worker/limits/composition-size.ts): a job whose composition is over the
// studio's limits (core/composition/size-limits.ts) fails before this node starts a browser for it, since one page
// of data-width="100000" would make each browser allocate gigabytes per frame. Once the page has loaded, what its
// runtime reports (a script may change the root, a timeline may set the length) is checked again before the
// viewport is sized to it or any frame is captured.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describeLimitProblems, findLimitProblems, readCompositionSize, readFpsRate } from "../../../core/composition/size-limits.ts";
import { MAX_PNG_SEQUENCE_FRAMES, type RenderOptions as ApiRenderOptions } from "../../../core/render/render-options.ts";
import { renderRate } from "../../../core/render/render-rate.ts";
import type { CompositionInfo } from "../../../page-runtime/api.ts";
import { isNotFound } from "../system/debug-log.ts";

/** The rate a render counts frames at: the request's fps (as the API wrote it) and format; none for a snapshot or check. */
export type CountingRate = Pick<ApiRenderOptions, "fps" | "format">;

/** Throws, naming every attribute over its maximum, when the composition file's root is over a limit. */
export async function refuseOversizedFile(projectDir: string, composition: string, render?: CountingRate): Promise<void> {
  const html = await readFile(join(projectDir, composition), "utf8").catch((error: unknown) => {
    // No such file: the caller's own check names it ("does not exist in the project").
    if (isNotFound(error)) return null;
    throw error;
  });
  const size = html === null ? null : readCompositionSize(html);
  if (!size) return;
  const problems = findLimitProblems(size, render ? renderRate(render, size.fps) : undefined);
  if (problems.length > 0) throw new Error(`composition ${describeLimitProblems(composition, problems)}`);
}

/** What a render settled on once the page loaded: its rate, format and frame count. */
export interface SettledFrames {
  fps: number;
  format: ApiRenderOptions["format"];
  frames: number;
}

/**
 * The same for the loaded page's own account of itself; with `render` (the rate, format and frames a job settled
 * on), frames are counted at its rate, and a png-sequence, which stores every frame as its own PNG, fails past
 * MAX_PNG_SEQUENCE_FRAMES. One call, so a render asks the limits once after the page has loaded.
 */
export function refuseOversizedInfo(info: Pick<CompositionInfo, "width" | "height" | "duration" | "fps">, composition: string, render?: SettledFrames): void {
  const size = { width: info.width, height: info.height, duration: info.duration, fps: readFpsRate(info.fps), texts: info.fps === null ? {} : { fps: info.fps } };
  const problems = findLimitProblems(size, render === undefined ? undefined : { fps: render.fps, source: "" });
  if (problems.length > 0) throw new Error(`composition ${describeLimitProblems(composition, problems)}`);
  if (render?.format === "png-sequence" && render.frames > MAX_PNG_SEQUENCE_FRAMES) {
    throw new Error(`a png-sequence holds at most ${MAX_PNG_SEQUENCE_FRAMES} frames; this render has ${render.frames}: shorten it, lower fps or render a video format`);
  }
}
