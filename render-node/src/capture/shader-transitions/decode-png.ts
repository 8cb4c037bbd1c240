// Decodes the PNGs Chromium's screenshots are (8-bit RGB or RGBA, not interlaced) into RGBA pixels: the scenes of a
// shader transition are captured as PNGs and blended as pixels. zlib undoes the compression; the row filters are
// undone here. Anything else (palette, 16-bit, interlaced) is refused, never guessed at.
import { inflateSync } from "node:zlib";

export interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, rows top first; opaque (alpha 255) when the PNG had no alpha. */
  data: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(png: Uint8Array): DecodedPng {
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (bytes.length < 33 || bytes.toString("latin1", 1, 4) !== "PNG") throw new Error("not a PNG");
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const depth = bytes[24];
  const colourType = bytes[25];
  const interlaced = bytes[28];
  const channels = colourType === 6 ? 4 : colourType === 2 ? 3 : 0;
  if (depth !== 8 || channels === 0 || interlaced !== 0) {
    throw new Error(`unsupported PNG (bit depth ${depth}, colour type ${colourType}, interlace ${interlaced})`);
  }
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    if (type === "IDAT") parts.push(bytes.subarray(at + 8, at + 8 + length));
    if (type === "IEND") break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(parts));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error("truncated PNG");
  const data = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  let line = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const start = y * (stride + 1);
    const filter = raw[start]!;
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      const add = filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : filter === 4 ? paeth(a, b, c) : 0;
      line[i] = (raw[start + 1 + i]! + add) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const s = x * channels;
      data[o] = line[s]!;
      data[o + 1] = line[s + 1]!;
      data[o + 2] = line[s + 2]!;
      data[o + 3] = channels === 4 ? line[s + 3]! : 255;
    }
    [prev, line] = [line, prev];
  }
  return { width, height, data };
}
