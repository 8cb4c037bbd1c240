// The GLSL built-ins HyperFrames' transition shaders use, on the CPU: texture sampling as WebGL does it for their
// textures (bilinear, clamp to edge, texel centres at (i + 0.5) / size), smoothstep, mix, and the value noise and
// fractal sums of their shared noise header (a sine hash, quintic fade, 5 octaves each rotated by (0.8, 0.6) and
// scaled by 2.02). Pure; no I/O.

/** One scene's pixels: RGBA, 8 bits a channel, rows top first (as a screenshot decodes). */
export interface Texture {
  data: Uint8Array;
  width: number;
  height: number;
}

export const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);
export const mix = (a: number, b: number, t: number): number => a * (1 - t) + b * t;
export const fract = (x: number): number => x - Math.floor(x);

/** `out = mix(a, b, t)` on RGB. */
export const mixInto = (out: Float64Array, a: ArrayLike<number>, b: ArrayLike<number>, t: number): void => {
  out[0] = mix(a[0]!, b[0]!, t);
  out[1] = mix(a[1]!, b[1]!, t);
  out[2] = mix(a[2]!, b[2]!, t);
};

export function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = clamp01((x - edge0) / (edge1 - edge0));
  return t * t * (3 - 2 * t);
}

/**
 * `texture2D(tex, vec2(u, v)).c` for channel c (0 red, 1 green, 2 blue), in 0-1. v = 0 is the top row (their
 * vertex shader flips v, and their textures are uploaded unflipped, so v grows downwards as image rows do).
 */
export function sampleChannel(tex: Texture, u: number, v: number, c: number): number {
  const { width: w, height: h, data } = tex;
  const x = u * w - 0.5;
  const y = v * h - 0.5;
  const x0f = Math.floor(x);
  const y0f = Math.floor(y);
  const fx = x - x0f;
  const fy = y - y0f;
  const x0 = x0f < 0 ? 0 : x0f > w - 1 ? w - 1 : x0f;
  const x1 = x0f + 1 < 0 ? 0 : x0f + 1 > w - 1 ? w - 1 : x0f + 1;
  const y0 = y0f < 0 ? 0 : y0f > h - 1 ? h - 1 : y0f;
  const y1 = y0f + 1 < 0 ? 0 : y0f + 1 > h - 1 ? h - 1 : y0f + 1;
  const top = data[(y0 * w + x0) * 4 + c]! * (1 - fx) + data[(y0 * w + x1) * 4 + c]! * fx;
  const bottom = data[(y1 * w + x0) * 4 + c]! * (1 - fx) + data[(y1 * w + x1) * 4 + c]! * fx;
  return (top * (1 - fy) + bottom * fy) / 255;
}

/** `texture2D(tex, uv).rgb` into `out`: one set of bilinear weights for the three channels. */
export function sampleRgb(tex: Texture, u: number, v: number, out: Float64Array): Float64Array {
  const { width: w, height: h, data } = tex;
  const x = u * w - 0.5;
  const y = v * h - 0.5;
  const x0f = Math.floor(x);
  const y0f = Math.floor(y);
  const fx = x - x0f;
  const fy = y - y0f;
  const x0 = x0f < 0 ? 0 : x0f > w - 1 ? w - 1 : x0f;
  const x1 = x0f + 1 < 0 ? 0 : x0f + 1 > w - 1 ? w - 1 : x0f + 1;
  const y0 = y0f < 0 ? 0 : y0f > h - 1 ? h - 1 : y0f;
  const y1 = y0f + 1 < 0 ? 0 : y0f + 1 > h - 1 ? h - 1 : y0f + 1;
  const a = (y0 * w + x0) * 4;
  const b = (y0 * w + x1) * 4;
  const c = (y1 * w + x0) * 4;
  const d = (y1 * w + x1) * 4;
  const wa = (1 - fx) * (1 - fy) / 255;
  const wb = fx * (1 - fy) / 255;
  const wc = (1 - fx) * fy / 255;
  const wd = fx * fy / 255;
  for (let k = 0; k < 3; k++) out[k] = data[a + k]! * wa + data[b + k]! * wb + data[c + k]! * wc + data[d + k]! * wd;
  return out;
}

/**
 * A per-pixel field that does not change with progress (a shader's noise), computed once per shader and frame
 * size and kept for the transition's other frames: `compute(u, v)` at each pixel centre, row by row.
 */
const fields = new Map<string, Float32Array>();
export function pixelField(key: string, width: number, height: number, compute: (u: number, v: number) => number): Float32Array {
  const id = `${key}:${width}x${height}`;
  let field = fields.get(id);
  if (field) return field;
  if (fields.size > 32) fields.clear(); // a render uses a handful; never grow without bound
  field = new Float32Array(width * height);
  for (let y = 0, i = 0; y < height; y++) {
    const v = (y + 0.5) / height;
    for (let x = 0; x < width; x++, i++) field[i] = compute((x + 0.5) / width, v);
  }
  fields.set(id, field);
  return field;
}

/** fract(sin(dot(p, k)) * 43758.5453): the classic shader hash, with the shader's constants. */
export const sineHash = (x: number, y: number, kx: number, ky: number): number => fract(Math.sin(x * kx + y * ky) * 43758.5453);

const hash = (x: number, y: number): number => sineHash(x, y, 127.1, 311.7);

/** Value noise with a quintic fade, in 0-1. */
export function valueNoise(px: number, py: number): number {
  const ix = Math.floor(px);
  const iy = Math.floor(py);
  let fx = px - ix;
  let fy = py - iy;
  fx = fx * fx * fx * (fx * (fx * 6 - 15) + 10);
  fy = fy * fy * fy * (fy * (fy * 6 - 15) + 10);
  const bottom = mix(hash(ix, iy), hash(ix + 1, iy), fx);
  const top = mix(hash(ix, iy + 1), hash(ix + 1, iy + 1), fx);
  return mix(bottom, top, fy);
}

/** Five octaves of `octave(noise)`, each point turned by the column-major mat2(.8,.6,-.6,.8) and scaled 2.02. */
function octaves(px: number, py: number, octave: (n: number) => number): number {
  let value = 0;
  let amplitude = 0.5;
  let x = px;
  let y = py;
  for (let i = 0; i < 5; i++) {
    value += amplitude * octave(valueNoise(x, y));
    const nx = 0.8 * x - 0.6 * y;
    const ny = 0.6 * x + 0.8 * y;
    x = nx * 2.02;
    y = ny * 2.02;
    amplitude *= 0.5;
  }
  return value;
}

export const fbm = (px: number, py: number): number => octaves(px, py, (n) => n);
export const ridged = (px: number, py: number): number => octaves(px, py, (n) => Math.abs(n * 2 - 1));

/** A transition's two scenes, how far along it is (p, 0 to 1), and the page's accent colours. */
export type Rgb = [number, number, number];
export interface Accents {
  accent: Rgb;
  dark: Rgb;
  bright: Rgb;
}

export interface ShaderInput {
  from: Texture;
  to: Texture;
  p: number;
  width: number;
  height: number;
  accents: Accents;
}

/** Writes pixel (u, v)'s RGB into `out`; u, v are the pixel's centre in 0-1, v = 0 at the top; i its index. */
export type PixelShader = (u: number, v: number, out: Float64Array, i: number) => void;
