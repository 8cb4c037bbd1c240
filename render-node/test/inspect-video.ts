// Test helpers that read a rendered file back with the real ffprobe/ffmpeg.
import { readFileSync, readdirSync } from "node:fs";
import { runTool } from "../src/system/run-tool.ts";
import { isNotFound } from "../src/system/debug-log.ts";

export interface StreamInfo {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  nb_read_frames?: string;
}

const signal = () => new AbortController().signal;

/** Every stream of a file, with decoded frame counts. */
export async function probeStreams(ffprobe: string, file: string): Promise<StreamInfo[]> {
  const out = await runTool(ffprobe, ["-v", "error", "-count_frames", "-show_streams", "-of", "json", file], signal()).done;
  return (JSON.parse(out) as { streams: StreamInfo[] }).streams;
}

/** The RGB colour at (x, y) of decoded frame number `frame` (0-based) of a video `width` pixels wide. */
export async function readPixel(ffmpeg: string, file: string, width: number, frame: number, x: number, y: number): Promise<[number, number, number]> {
  const out = `${file}.frame${frame}.rgb`;
  await runTool(ffmpeg, [
    "-v", "error", "-y", "-i", file, "-vf", `select=eq(n\\,${frame})`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", out,
  ], signal()).done;
  const bytes = readFileSync(out);
  const offset = (y * width + x) * 3;
  return [bytes[offset] ?? -1, bytes[offset + 1] ?? -1, bytes[offset + 2] ?? -1];
}

/** Root-mean-square level (0..1) of the first audio stream between two times, decoded to mono 8 kHz. */
export async function audioRms(ffmpeg: string, file: string, from: number, to: number): Promise<number> {
  const out = `${file}.pcm`;
  await runTool(ffmpeg, ["-v", "error", "-y", "-i", file, "-vn", "-ac", "1", "-ar", "8000", "-f", "s16le", out], signal()).done;
  const pcm = readFileSync(out);
  let sum = 0;
  let count = 0;
  for (let i = Math.floor(from * 8000); i < Math.floor(to * 8000) && i * 2 + 1 < pcm.length; i++) {
    const sample = pcm.readInt16LE(i * 2) / 32768;
    sum += sample * sample;
    count++;
  }
  return count ? Math.sqrt(sum / count) : 0;
}

/** Pids of every live process below `root` (from /proc), excluding zombies. */
export function listDescendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z") continue;
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch (error) {
      // Gone since the listing: not a child any more.
      if (!isNotFound(error) && (error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Whether a pid is still a running (non-zombie) process. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch (error) {
    // No /proc entry: the process is gone.
    if (isNotFound(error) || (error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/** Pure colours the pixel tests paint and read back (within encoder noise). */
export type Rgb = [number, number, number];
export const COLOURS = {
  RED: [255, 0, 0], GREEN: [0, 255, 0], BLUE: [0, 0, 255], BLACK: [0, 0, 0],
  MAGENTA: [255, 0, 255], CYAN: [0, 255, 255], WHITE: [255, 255, 255], YELLOW: [255, 255, 0],
} satisfies Record<string, Rgb>;
