// The served docs' Markdown files as the Worker's assets carry them (core/docs/doc-text-files.ts), copied there as
// copied-assets.ts says.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CopiedAsset } from "./copied-assets.ts";
import { DOC_TEXT_FILES, DOC_TEXTS_PATH } from "../../core/docs/doc-text-files.ts";

const TEXT_DIR = fileURLToPath(new URL("../../worker/docs/text/", import.meta.url));

export function docTextAssets(): CopiedAsset[] {
  return Object.values(DOC_TEXT_FILES).map((file) => ({ fileName: `${DOC_TEXTS_PATH.slice(1)}/${file}`, source: join(TEXT_DIR, file) }));
}
