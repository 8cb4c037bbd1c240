// A composition over the studio's limits (core/composition/size-limits.ts: canvas, frame rate, length, frames) is
// refused before anything is queued, so no render node opens it: a data-width="100000" would make each of a shared
// node's browsers allocate gigabytes per frame. The node checks again before it starts a browser.
import { loadCompositionReaders } from "../projects/load-composition-readers.ts";
import type { RenderOptions } from "../../core/render/render-options.ts";
import { renderRate } from "../../core/render/render-rate.ts";
import { declaredRange, hasRange } from "../../core/render/render-range.ts";
import type { Env } from "../env.ts";
import { fileKey, type ProjectRef } from "../storage/keys.ts";
import { badRequest } from "../http/errors.ts";

/**
 * Throws a 400 naming every attribute over its maximum, with its value and the maximum. A render counts frames at
 * the rate it will use (its fps option, else the root's data-fps, else 30). Returns false when there is no such
 * file (the caller says what that means; one read serves both questions); a file without a root is left to lint.
 */
export async function requireCompositionWithinLimits(
  env: Pick<Env, "FILES">,
  ref: ProjectRef,
  path: string,
  render?: Pick<RenderOptions, "fps" | "format" | "from" | "to">,
): Promise<boolean> {
  const object = await env.FILES.get(fileKey(ref, path));
  if (!object) return false;
  const { describeLimitProblems, findLimitProblems, readCompositionSize } = await loadCompositionReaders();
  const size = readCompositionSize(await object.text());
  if (!size) return true;
  const problems = findLimitProblems(size, render ? renderRate(render, size.fps) : undefined);
  if (problems.length > 0) throw badRequest(`invalid composition: ${describeLimitProblems(path, problems)}`);
  // A range (from/to) must lie within the declared length; without data-duration the node settles it on the page.
  if (render && hasRange(render) && size.duration) {
    const range = declaredRange(render, renderRate(render, size.fps).fps, size.duration);
    if ("error" in range) throw badRequest(`invalid ${range.option}: ${range.error}`);
  }
  return true;
}
