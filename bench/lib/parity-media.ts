// The I/O half of the parity harness (bench/parity.ts): the assets the corpus refers to, and what ffprobe/ffmpeg read
// from a rendered file (shape, frames as pixels, audio level and onset). The arithmetic is in parity-compare.ts.
import { execFile } from "node:child_process";
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { runProcess } from "./run-process.ts";
import { levelWindows, onsetSeconds, parseRate, parseVolumeDetect, type Rate, type SoundFigures } from "./parity-compare.ts";

const execFileP = promisify(execFile);
const DEJAVU = "/usr/share/fonts/truetype/dejavu";

/** Assets the corpus refers to, made here so the repository holds only text: sine tones, a video with sound, a project font. */
export async function makeAssets(dir: string, ffmpeg: string): Promise<void> {
  await mkdir(join(dir, "fonts"), { recursive: true });
  const tone = (layout: string, file: string) =>
    runProcess(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", `sine=frequency=440:duration=2:sample_rate=48000`, "-af", `aformat=channel_layouts=${layout}`, join(dir, file)], process.env, 15);
  await tone("mono", "tone-mono.wav");
  await tone("stereo", "tone-stereo.wav");
  // A video with sound: testsrc (a counter, moving bars) and a stereo 440 Hz tone from its 1 s mark, 4 s, a keyframe
  // a second (HyperFrames warns of sparser ones).
  await runProcess(ffmpeg, [
    "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=320x180:r=30:d=4", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=48000",
    "-filter_complex", "[1:a]aformat=channel_layouts=stereo,adelay=1000|1000[a]", "-map", "0:v", "-map", "[a]",
    "-c:v", "libx264", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac", "-t", "4", join(dir, "counter-tone.mp4"),
  ], process.env, 15);
  // A video whose every frame is one flat grey, frame n at level 16 + (37n mod 220): a frame shown one off its place
  // is tens of levels away, where testsrc's counter differs in a few pixels (video-playback-rate).
  await runProcess(ffmpeg, [
    "-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=320x180:r=30:d=4",
    "-vf", "geq=lum=16+mod(N*37\\,220):cb=128:cr=128", "-c:v", "libx264", "-qp", "0", "-g", "30", "-pix_fmt", "yuv420p", join(dir, "levels.mp4"),
  ], process.env, 15);
  await copyFile(join(DEJAVU, "DejaVuSans.ttf"), join(dir, "fonts", "parity-sans.ttf"));
  await copyFile(join(DEJAVU, "DejaVuSans-Bold.ttf"), join(dir, "fonts", "parity-sans-bold.ttf"));
}

export interface Probe {
  rate: Rate;
  frames: number;
  width: number;
  height: number;
  hasAudio: boolean;
  /** The video stream's codec (vp9 needs libvpx to decode its alpha) and pixel format as ffprobe names them. */
  codec: string;
  pixFmt: string;
  /** The stream's alpha_mode tag ("1": VP9 with an alpha plane), "" when absent. */
  alphaMode: string;
}

export async function probe(ffprobe: string, file: string): Promise<Probe> {
  const { stdout } = await execFileP(ffprobe, ["-v", "error", "-count_packets", "-show_streams", "-of", "json", file]);
  const streams = (JSON.parse(stdout) as {
    streams: { codec_type: string; codec_name?: string; pix_fmt?: string; width?: number; height?: number; nb_read_packets?: string; r_frame_rate?: string; tags?: Record<string, string> }[];
  }).streams;
  const video = streams.find((s) => s.codec_type === "video");
  if (!video) throw new Error(`${file} has no video stream`);
  const alphaTag = Object.entries(video.tags ?? {}).find(([k]) => k.toLowerCase() === "alpha_mode");
  return {
    rate: parseRate(video.r_frame_rate ?? "0"),
    frames: Number(video.nb_read_packets),
    width: video.width ?? 0,
    height: video.height ?? 0,
    hasAudio: streams.some((s) => s.codec_type === "audio"),
    codec: video.codec_name ?? "",
    pixFmt: video.pix_fmt ?? "",
    alphaMode: alphaTag?.[1] ?? "",
  };
}

/**
 * The frames at `indices` (ascending, unique) as raw RGB, or RGBA with `alpha`, scaled to width x height. VP9 keeps
 * its alpha plane as side data only libvpx's decoder reads (ffmpeg's own vp9 decoder drops it), so it is asked for.
 */
export async function decodeFrames(
  ffmpeg: string, file: string, indices: number[], width: number, height: number, alpha: { codec: string } | null = null,
): Promise<Uint8Array[]> {
  const select = indices.map((n) => `eq(n\\,${n})`).join("+");
  const decoder = alpha?.codec === "vp9" ? ["-c:v", "libvpx-vp9"] : [];
  const { stdout } = await execFileP(
    ffmpeg,
    ["-v", "error", ...decoder, "-i", file, "-vf", `select='${select}',scale=${width}:${height}`, "-vsync", "0", "-f", "rawvideo", "-pix_fmt", alpha ? "rgba" : "rgb24", "-"],
    { encoding: "buffer", maxBuffer: 1 << 30 },
  );
  const size = width * height * (alpha ? 4 : 3);
  if (stdout.length !== size * indices.length) throw new Error(`${file}: decoded ${stdout.length} bytes, expected ${indices.length} frames of ${size}`);
  return indices.map((_, k) => new Uint8Array(stdout.buffer, stdout.byteOffset + k * size, size));
}

export async function audioFigures(ffmpeg: string, file: string): Promise<SoundFigures | null> {
  const { stderr } = await execFileP(ffmpeg, ["-hide_banner", "-i", file, "-vn", "-af", "volumedetect", "-f", "null", "-"]);
  const level = parseVolumeDetect(stderr);
  if (!level) return null;
  const rate = 48000;
  const { stdout } = await execFileP(ffmpeg, ["-v", "error", "-i", file, "-vn", "-ac", "1", "-ar", String(rate), "-f", "s16le", "-"], {
    encoding: "buffer", maxBuffer: 1 << 28,
  });
  const samples = new Int16Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + (stdout.length & ~1)));
  return { ...level, onset: onsetSeconds(samples, rate), windows: levelWindows(samples, rate) };
}
