// Reads PNG dimensions and pixels in tests, with the node's own decoder (render-node/src/capture/shader-transitions/decode-png.ts).
import { decodePng } from "../src/capture/shader-transitions/decode-png.ts";

export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** RGB(A) of pixel (x, y): RGBA for a PNG with alpha, RGB for one without (the 8-bit PNGs Chromium writes). */
export function readPngPixel(png: Buffer, x: number, y: number): number[] {
  const { width, data } = decodePng(png);
  const channels = png[25] === 6 ? 4 : 3;
  const o = (y * width + x) * 4;
  return Array.from(data.subarray(o, o + channels));
}
