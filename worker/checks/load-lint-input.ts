// Gathers what the linter reads from R2: every file's path and size, and the text of the files it parses.
import type { LintInput } from "../../core/lint/index.ts";
import { fileKey, type ProjectRef } from "../storage/keys.ts";
import { listProjectFiles } from "../storage/list-objects.ts";

const TEXT_FILE = /\.(html?|css|js|mjs|json)$/i;
/** Larger text files are listed but not parsed; no composition file is anywhere near this. */
const MAX_TEXT_BYTES = 2 * 1024 * 1024;

export async function loadLintInput(bucket: R2Bucket, ref: ProjectRef, entry = "index.html"): Promise<LintInput> {
  const entries = (await listProjectFiles(bucket, ref)).filter((f) => f.type === "file" && !f.path.startsWith("snapshots/"));
  const files = await Promise.all(
    entries.map(async ({ path, size }) => {
      if (!TEXT_FILE.test(path) || size > MAX_TEXT_BYTES) return { path, size };
      const object = await bucket.get(fileKey(ref, path));
      return { path, size, text: object ? await object.text() : undefined };
    }),
  );
  return { files, entry };
}
