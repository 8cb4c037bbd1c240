// Captured frames to a chunk encoder with their timestamps: an IVF stream (a 32-byte header, then per frame a
// 12-byte header with its size and timestamp). image2pipe numbers frames by arrival, so every frame had to be
// written, decoded and colour-converted again even when the page proved it identical to the one before (frame
// reuse); with timestamps a hold is written once at its first and once at its last frame, and ffmpeg's constant-rate
// output (-vsync cfr) fills the frames between with the same decoded picture. Pure.
import type { Fps } from "../plan/resolve-render.ts";

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

/**
 * The pixel size an image's own header states (a PNG's IHDR, a JPEG's start-of-frame), or null when neither is
 * found. The IVF header must state the frames' true size: Chromium's screenshots come at the page's CSS size when
 * ffmpeg does the scaling (a resolution preset), and ffmpeg's decoder given a header of another size fails every
 * other frame (a chunk of 30 became 29 frames). Pure.
 */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString("latin1", 12, 16) === "IHDR") {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  // JPEG segments after SOI: FF <marker> <length, 2 bytes, counting itself> ...; SOF0-SOF15 hold height then width,
  // except DHT (C4), JPG (C8) and DAC (CC), which share the range.
  for (let at = 2; at + 9 <= bytes.length; ) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    if (marker === 0xda || marker === 0xd9) return null; // scan data or the end, with no frame header before it
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}
