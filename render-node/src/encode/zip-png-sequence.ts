// The output of a png-sequence render: every frame's PNG (frame_000001.png on, HyperFrames' names) and, when the
// composition has sound, the mixed track as audio.m4a, stored in one zip. PNGs are compressed already, so the
// entries are stored as they are (no deflate pass), streamed to disk one file at a time.
import { createReadStream, createWriteStream } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import { Zip, ZipPassThrough } from "fflate";

/** The frame files of the chunk folders, in frame order; throws unless there are exactly `frames` of them. */
export async function listPngFrames(chunkDirs: string[], frames: number): Promise<string[]> {
  const files: string[] = [];
  for (const dir of chunkDirs) {
    const names = (await readdir(dir)).filter((name) => /^frame_\d{6,}\.png$/.test(name)).sort();
    files.push(...names.map((name) => join(dir, name)));
  }
  if (files.length !== frames) throw new Error(`png-sequence: ${files.length} frames were captured, the render has ${frames}`);
  return files;
}

/** Writes `entries` (frames, then any extras such as audio.m4a) into the zip at `output` under their base names. */
export async function writeStoredZip(entries: { name: string; path: string }[], output: string, signal: AbortSignal): Promise<void> {
  const out = createWriteStream(output);
  let failed: Error | null = null;
  out.on("error", (error) => (failed = error));
  const zip = new Zip((error, data) => {
    if (error) failed = error;
    else out.write(data);
  });
  try {
    for (const entry of entries) {
      signal.throwIfAborted();
      if (failed) throw failed;
      const file = new ZipPassThrough(entry.name);
      zip.add(file);
      // Frames are small: read whole. A sound track may be large: streamed.
      if (entry.name.endsWith(".png")) file.push(await readFile(entry.path), true);
      else {
        for await (const chunk of createReadStream(entry.path)) file.push(chunk as Buffer);
        file.push(new Uint8Array(0), true);
      }
      if (out.writableNeedDrain) await once(out, "drain");
    }
    zip.end();
  } finally {
    out.end();
    // The stream's error is the zip's failure, thrown below (the first one wins: it also reached "error" above).
    await finished(out).catch((error: unknown) => {
      failed ??= error instanceof Error ? error : new Error(String(error));
    });
  }
  if (failed) throw failed;
}
