// The `index`th frame (from 0) of a png-sequence render's zip (encode/zip-png-sequence.ts: frame_NNNNNN.png entries
// in frame order, then audio.m4a), written to `target`. Streamed: only that entry is kept, so a zip of any size
// costs one frame of memory.
import { createReadStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { Unzip, UnzipPassThrough, type UnzipFile } from "fflate";

const FRAME_ENTRY = /^frame_\d{6,}\.png$/;

/** Resolves when the frame is written; rejects when the zip has fewer frames or does not read. */
export async function extractZipFrame(zipPath: string, index: number, target: string, signal: AbortSignal): Promise<void> {
  const parts: Uint8Array[] = [];
  let seen = 0;
  let found: UnzipFile | null = null;
  let failed: Error | null = null;
  let whole = false;
  const unzip = new Unzip((file) => {
    if (!FRAME_ENTRY.test(file.name) || found) return;
    if (seen++ !== index) return;
    found = file;
    file.ondata = (error, data, final) => {
      if (error) failed = error;
      else parts.push(data);
      if (final) whole = true;
    };
    file.start();
  });
  unzip.register(UnzipPassThrough);
  for await (const chunk of createReadStream(zipPath, { signal })) {
    unzip.push(chunk as Buffer);
    if (failed) throw failed;
    if (whole) break;
  }
  if (!whole) unzip.push(new Uint8Array(0), true);
  if (failed) throw failed;
  if (!whole) throw new Error(`the zip holds ${seen} frames; the poster's is frame ${index}`);
  await writeFile(target, Buffer.concat(parts));
}
