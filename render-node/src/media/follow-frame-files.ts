// Sums the bytes of the numbered JPEGs an ffmpeg writes (<dir>/000031.jpg, 000032.jpg, …), as they appear, so
// the scratch budget can stop it mid-run. ffmpeg's own size limit (-fs) does not apply to image sequences, so the
// node watches: each file is read once when the next one exists (it is complete), and the newest one (maybe still
// being written) again at every look. A look costs one stat per new file, never a listing of the folder.
import { stat } from "node:fs/promises";
import { join } from "node:path";

export function frameFileName(frame: number): string {
  return `${String(frame).padStart(6, "0")}.jpg`;
}

export interface FrameFiles {
  /** Bytes and files written from `first` on so far. */
  look(): Promise<{ bytes: number; files: number }>;
}

export function followFrameFiles(dir: string, first: number): FrameFiles {
  let next = first;
  let complete = 0;
  // A file not there yet is null; any other failure to read one is the run's failure.
  const size = (frame: number) =>
    stat(join(dir, frameFileName(frame))).then((info) => info.size, (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    });
  return {
    async look() {
      for (;;) {
        const current = await size(next);
        if (current === null) return { bytes: complete, files: next - first };
        const after = await size(next + 1);
        if (after === null) return { bytes: complete + current, files: next - first + 1 };
        complete += current;
        next += 1;
      }
    },
  };
}
