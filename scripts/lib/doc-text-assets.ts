// The served docs' Markdown files as the Worker's assets carry them (core/docs/doc-text-files.ts): the dashboard
// build emits them (dashboard/vite.config.ts); the workerd tests, which serve dashboard/dist without building it,
// place them there first (test/worker-assets.global.ts).
import { copyFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DOC_TEXT_FILES, DOC_TEXTS_PATH } from "../../core/docs/doc-text-files.ts";

const TEXT_DIR = fileURLToPath(new URL("../../worker/docs/text/", import.meta.url));

export interface DocTextAsset {
  /** Path inside the assets folder, e.g. "_docs-text/studio.md". */
  fileName: string;
  /** The file in worker/docs/text/. */
  source: string;
}

export function docTextAssets(): DocTextAsset[] {
  return Object.values(DOC_TEXT_FILES).map((file) => ({ fileName: `${DOC_TEXTS_PATH.slice(1)}/${file}`, source: join(TEXT_DIR, file) }));
}

/** Copies them into an assets folder (what the dashboard build would emit there). */
export async function placeDocTexts(assetsDir: string): Promise<void> {
  for (const asset of docTextAssets()) {
    const to = join(assetsDir, asset.fileName);
    await mkdir(dirname(to), { recursive: true });
    await copyFile(asset.source, to);
  }
}
