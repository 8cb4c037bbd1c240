// Reads PNG dimensions and pixels in tests: decodes the IDAT stream with zlib and undoes the row filters.
import { inflateSync } from "node:zlib";

export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** RGB(A) of pixel (x, y); supports the 8-bit RGB and RGBA PNGs Chromium writes. */
export function readPngPixel(png: Buffer, x: number, y: number): number[] {
  const { width, height } = pngSize(png);
  const colorType = png[25];
  const channels = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  if (png[24] !== 8 || channels === 0) throw new Error(`unsupported PNG (bit depth ${png[24]}, colour type ${colorType})`);
  const parts: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString("ascii", at + 4, at + 8);
    if (type === "IDAT") parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(parts));
  const stride = width * channels;
  const rows: Buffer[] = [];
  for (let row = 0; row <= Math.min(y, height - 1); row++) {
    const filter = raw[row * (stride + 1)]!;
    const line = Buffer.from(raw.subarray(row * (stride + 1) + 1, (row + 1) * (stride + 1)));
    const prev = rows[row - 1];
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels]! : 0;
      const b = prev ? prev[i]! : 0;
      const c = prev && i >= channels ? prev[i - channels]! : 0;
      const add = filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : filter === 4 ? paeth(a, b, c) : 0;
      line[i] = (line[i]! + add) & 0xff;
    }
    rows.push(line);
  }
  const line = rows[y]!;
  return Array.from(line.subarray(x * channels, x * channels + channels));
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
