// Captured frames to a chunk encoder with their timestamps: an IVF stream (a 32-byte header, then per frame a
// 12-byte header with its size and timestamp). image2pipe numbers frames by arrival, so every frame had to be
// written, decoded and colour-converted again even when the page proved it identical to the one before (frame
// reuse); with timestamps a hold is written once at its first and once at its last frame, and ffmpeg's constant-rate
// output (-vsync cfr) fills the frames between with the same decoded picture. Pure.
import type { Fps } from "./parse-render-options.ts";

export interface IvfStreamInfo {
  /** What the frames are: Chromium's JPEGs, or PNGs when the render keeps alpha. */
  image: "jpeg" | "png";
  width: number;
  height: number;
  fps: Fps;
}

/** The stream header. Timestamps count frames: the time base is den/num seconds (1001/30000 for 29.97 fps). */
export function ivfHeader(info: IvfStreamInfo): Buffer {
  if (info.width > 0xffff || info.height > 0xffff) throw new Error(`frames of ${info.width}x${info.height} do not fit an IVF header`);
  const header = Buffer.alloc(32);
  header.write("DKIF", 0, "latin1");
  header.writeUInt16LE(0, 4); // version
  header.writeUInt16LE(32, 6); // header size
  // The codec as ffmpeg's bitmap tags name it: MJPG is Motion JPEG, MPNG a PNG per frame.
  header.write(info.image === "png" ? "MPNG" : "MJPG", 8, "latin1");
  header.writeUInt16LE(info.width, 12);
  header.writeUInt16LE(info.height, 14);
  header.writeUInt32LE(info.fps.num, 16); // time base denominator (rate)
  header.writeUInt32LE(info.fps.den, 20); // time base numerator (scale)
  header.writeUInt32LE(0, 24); // frame count: unknown while streaming
  return header;
}

/** The header that goes before one frame's bytes: its size and its timestamp (frames from the chunk's first). */
export function ivfFrameHeader(size: number, pts: number): Buffer {
  if (!Number.isSafeInteger(pts) || pts < 0) throw new Error(`frame timestamp ${pts} is not a frame count`);
  const header = Buffer.alloc(12);
  header.writeUInt32LE(size, 0);
  header.writeBigUInt64LE(BigInt(pts), 4);
  return header;
}
