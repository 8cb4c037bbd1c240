// ffmpeg's arguments for a render's poster: one frame of the rendered output as a JPEG. Pure; the numbers are
// formatted here, on the command line only.

/** The poster is a JPEG at the output's size (alpha, where the output has it, is dropped). */
export const POSTER_CONTENT_TYPE = "image/jpeg";
export const POSTER_FILE = "poster.jpg";

/** JPEG quality on ffmpeg's 2 (best) to 31 scale. */
const POSTER_QSCALE = "3";

/**
 * Frame `frame` of a video at `fps`: an accurate seek (ffmpeg decodes from the keyframe before and drops every frame
 * shown before the time), to a quarter frame before the frame's own time, so rounding never lands on the next one.
 * By time, as a player shows it: the same frame in every format, a GIF's included, whatever its coded frames.
 */
export function videoPosterArgs(input: string, frame: number, fps: number, output: string): string[] {
  const seek = Math.max(0, (frame - 0.25) / fps);
  return ["-hide_banner", "-loglevel", "error", "-ss", seek.toFixed(6), "-i", input, "-map", "0:v:0", "-frames:v", "1", "-q:v", POSTER_QSCALE, "-y", output];
}

/** One still image (a png-sequence's frame) as the poster. */
export function imagePosterArgs(input: string, output: string): string[] {
  return ["-hide_banner", "-loglevel", "error", "-i", input, "-frames:v", "1", "-q:v", POSTER_QSCALE, "-y", output];
}
