// The render cache's key of a render about to be asked for (core/render/render-cache-key.ts computes it): every file
// the render's job would be given, by content, with the render's options. Reads R2 only (one listing of the
// project, ETags included), so it rides beside the route's D1 reads and costs the request no trip to D1.
//
// Every project file a render job is given is in the key, not only those the composition names: a page loads what
// its markup, its CSS and its scripts ask for, and a script can build a path the Worker cannot see by reading the
// HTML. The snapshots folder is the studio's output, which no render is given (farm/node-routes.ts), so taking a
// snapshot leaves the key as it was. Nothing outside the
// project can change the output (a render page reaches no network: farm/node-routes.ts gives it the project's files,
// the node serves GSAP from the releases it ships and blocks every other request), so the key misses whenever a file
// changed, even one the composition never loads, and never reuses a different video. The Google Fonts copies the
// Worker keeps in the project's reserved folder are in the key too (a job is given them): a render whose job
// fetched them for the first time (or could not, and fell back) is not reused by the next render, which has them;
// the renders after it are.
import { isHiddenPath, isSnapshotPath } from "../../core/paths/project-path.ts";
import { renderCacheKey, type HashedFile } from "../../core/render/render-cache-key.ts";
import type { RenderOptions } from "../../core/render/render-options.ts";
import type { Env } from "../env.ts";
import { listObjects } from "../storage/list-objects.ts";
import { projectPrefix, type ProjectRef } from "../storage/keys.ts";

/** Whether a project path is a file a render job is given (farm/node-routes.ts nodeListJobFiles: the project's
 * files, not its hidden folders nor its snapshots, and the Google Fonts copies in GOOGLE_FONTS_DIR). */
function isJobFile(path: string): boolean {
  return path !== "" && !path.endsWith("/") && !isHiddenPath(path) && !isSnapshotPath(path);
}

/** The project's files as a render job gets them (with the fonts' copies), each with R2's ETag (the MD5 of its
 * bytes) as its hash. */
export async function hashedJobFiles(bucket: R2Bucket, ref: ProjectRef): Promise<HashedFile[]> {
  const prefix = projectPrefix(ref);
  return (await listObjects(bucket, prefix)).map((o) => ({ path: o.key.slice(prefix.length), hash: o.etag })).filter((f) => isJobFile(f.path));
}

/** The render cache's key of a render of `ref` with `options` (defaults applied), as of the project's files now. */
export async function renderInputsKey(env: Env, ref: ProjectRef, options: RenderOptions): Promise<string> {
  return renderCacheKey({ files: await hashedJobFiles(env.FILES, ref), options });
}
