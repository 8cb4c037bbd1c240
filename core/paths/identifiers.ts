// The names a URL path carries — a project's slug, a file path inside the project, a render's file name — as zod
// schemas over the one rule each already has (slugify.ts, project-path.ts, render-options.ts), for callers that get
// a name as a value and put it into a URL themselves (the MCP tools). A REST route reads the same names from its
// raw URL with the same functions, so a name is refused for the same reason in the same words either way. Threat:
// a value that is not such a name ("../../../me", "a%2f..", "x?y") becoming part of a URL that names another
// resource. Where a rule fits a pattern or a length, the schema says so in a form a JSON Schema shows (an MCP
// tool's inputSchema), so a model sees the constraint before it calls.
import * as z from "zod";
import { isRenderFilename } from "../render/render-options.ts";
import { checkProjectPath, encodePath, MAX_PATH_LENGTH } from "./project-path.ts";
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from "./slugify.ts";
import { attempt } from "../parse-text.ts";

/** A project's slug: what slugify makes of its name. */
export const projectSlug = z
  .string()
  .max(MAX_SLUG_LENGTH, { message: `slug is longer than ${MAX_SLUG_LENGTH} characters`, abort: true })
  .regex(SLUG_PATTERN, "slug must be lowercase letters a-z, digits and hyphens, starting with a letter or digit");

/** Why `path` (a project file path as written, not percent-encoded) is not one, or null: checkProjectPath's words. */
export function projectPathProblem(path: string): string | null {
  const read = attempt(() => encodePath(path));
  if (!read.ok) return "path is not valid Unicode (it has a lone surrogate)"; // encodeURIComponent cannot encode one
  const encoded = read.value;
  const check = checkProjectPath(encoded);
  return check.ok ? null : check.error;
}

/**
 * A project-relative file path as written ("compositions/intro.html"; a trailing "/" names a directory). It is
 * checked exactly as the REST route checks the URL it becomes: percent-encoded segment by segment, then
 * checkProjectPath on that text, so a name REST would refuse in a URL is refused here with the same message.
 */
export const projectFilePath = z
  .string()
  .max(MAX_PATH_LENGTH, { message: `path is longer than ${MAX_PATH_LENGTH} characters`, abort: true })
  .superRefine((path, ctx) => {
    const problem = projectPathProblem(path);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** Longest render file name: a slug, a date and time, and an extension. */
const MAX_RENDER_FILENAME_LENGTH = MAX_SLUG_LENGTH + 32;

/** A rendered video's file name as GET /api/renders lists it: `<slug>_<yyyy-mm-dd>_<hh-mm-ss>.<format>`. */
export const renderFilename = z
  .string()
  .max(MAX_RENDER_FILENAME_LENGTH, { message: `filename is longer than ${MAX_RENDER_FILENAME_LENGTH} characters`, abort: true })
  .refine(isRenderFilename, "filename must be a render's file name: <slug>_<yyyy-mm-dd>_<hh-mm-ss>.<mp4|webm|mov|gif|zip>");
