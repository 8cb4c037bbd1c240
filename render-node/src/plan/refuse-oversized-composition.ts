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

/** The same for the loaded page's own account of itself; `fps` is the rate the job settled on, if it counts frames. */
export function refuseOversizedInfo(info: Pick<CompositionInfo, "width" | "height" | "duration" | "fps">, composition: string, fps?: number): void {
  const size = { width: info.width, height: info.height, duration: info.duration, fps: readFpsRate(info.fps), texts: info.fps === null ? {} : { fps: info.fps } };
  const problems = findLimitProblems(size, fps === undefined ? undefined : { fps, source: "" });
  if (problems.length > 0) throw new Error(`composition ${describeLimitProblems(composition, problems)}`);
}

/** A png-sequence stores every frame as its own PNG: past MAX_PNG_SEQUENCE_FRAMES it fails before any capture. */
export function refusePngSequenceLength(format: ApiRenderOptions["format"], frames: number): void {
  if (format === "png-sequence" && frames > MAX_PNG_SEQUENCE_FRAMES) {
    throw new Error(`a png-sequence holds at most ${MAX_PNG_SEQUENCE_FRAMES} frames; this render has ${frames}: shorten it, lower fps or render a video format`);
  }
}
