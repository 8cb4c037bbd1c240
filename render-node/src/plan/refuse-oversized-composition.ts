// Defence in depth for the Worker's check (worker/limits/composition-size.ts), for the snapshot's and check's page
// (browser/open-composition.ts): a composition over the studio's limits (core/composition/size-limits.ts) fails
// before this node starts a browser for it, since one page of data-width="100000" would make each browser allocate
// gigabytes per frame. Once the page has loaded, what its
// runtime reports (a script may change the root, a timeline may set the length) is checked again before any frame
// is captured (for a render, at the rate it settled on: settle-render.ts).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describeLimitProblems, findLimitProblems, readCompositionSize, readFpsRate, type RootSize } from "../../../core/composition/size-limits.ts";
import type { CompositionInfo } from "../../../page-runtime/api.ts";
import { isNotFound } from "../system/debug-log.ts";

/**
 * Throws, naming every attribute over its maximum, when the composition file's root is over a limit, frames counted
 * at its own rate (a snapshot's or check's page; a render's file is checked at the request's rate by
 * check-composition-file.ts).
 */
export async function refuseOversizedFile(projectDir: string, composition: string): Promise<void> {
  const html = await readFile(join(projectDir, composition), "utf8").catch((error: unknown) => {
    // No such file: the caller's own check names it ("does not exist in the project").
    if (isNotFound(error)) return null;
    throw error;
  });
  const size = html === null ? null : readCompositionSize(html);
  if (!size) return;
  const problems = findLimitProblems(size);
  if (problems.length > 0) throw new Error(`composition ${describeLimitProblems(composition, problems)}`);
}

/** What the loaded page reports of its root, as the limits read a root (core/composition/size-limits.ts). */
export function reportedSize(info: Pick<CompositionInfo, "width" | "height" | "duration" | "fps">): RootSize {
  return { width: info.width, height: info.height, duration: info.duration, fps: readFpsRate(info.fps), texts: info.fps === null ? {} : { fps: info.fps } };
}

/**
 * The same for the loaded page's own account of itself, frames counted at its own rate (a snapshot's or check's
 * page; a render checks it at the rate it settled on, settle-render.ts).
 */
export function refuseOversizedInfo(info: Pick<CompositionInfo, "width" | "height" | "duration" | "fps">, composition: string): void {
  const problems = findLimitProblems(reportedSize(info));
  if (problems.length > 0) throw new Error(`composition ${describeLimitProblems(composition, problems)}`);
}
