// HyperFrames' scene-transition shaders (@hyperframes/shader-transitions, HyperShader), one pixel function each,
// written from the GLSL their page-side compositor runs in an mp4 render: the from-scene and to-scene textures, the
// progress p (0-1, linear in time), the frame size and three accent colours. Each returns the pixel's RGB in 0-1
// (unclamped: blendScenes clamps and rounds as a WebGL canvas stores it). Noise-driven shaders (noise-blends.ts)
// use the same hash in double precision where a GPU uses single, so their noise fields agree in character, not
// pixel for pixel (a GPU's own sine decides those bits). Pure.
import { clamp01, fract, mix, mixInto, sampleChannel, sampleRgb, sineHash, smoothstep, type Accents, type PixelShader, type Rgb, type ShaderInput, type Texture } from "./shader-math.ts";
import { crossWarpMorph, domainWarp, ridgedBurn, swirlVortex, thermalDistortion } from "./noise-blends.ts";

// The shaders' input and output types live with the GLSL built-ins (shader-math.ts), so noise-blends.ts needs no
// import from here; they are re-exported for the files that read the table.
export type { Accents, PixelShader, Rgb, ShaderInput };

const A = new Float64Array(3);
const B = new Float64Array(3);

/** Average of `taps` samples of one channel along uv + d * scale * (i / taps). */
function streak(tex: Texture, u: number, v: number, du: number, dv: number, taps: number, c: number): number {
  let sum = 0;
  for (let i = 0; i < taps; i++) {
    const f = i / taps;
    sum += sampleChannel(tex, u + du * f, v + dv * f, c);
  }
  return sum / taps;
}

const flashThroughWhite = ({ from, to, p }: ShaderInput): PixelShader => {
  const toWhite = smoothstep(0, 0.45, p);
  const fromWhite = 1 - smoothstep(0.5, 1, p);
  const t = smoothstep(0.35, 0.65, p);
  return (u, v, out) => {
    sampleRgb(from, u, v, A);
    sampleRgb(to, u, v, B);
    for (let c = 0; c < 3; c++) out[c] = mix(mix(A[c]!, 1, toWhite), mix(B[c]!, 1, fromWhite), t);
  };
};

const sdfIris = ({ from, to, p, width, height, accents }: ShaderInput): PixelShader => {
  const aspect = width / height;
  const radius = p * 1.2;
  return (u, v, out) => {
    sampleRgb(from, u, v, A);
    sampleRgb(to, u, v, B);
    const x = (u - 0.5) * aspect;
    const y = v - 0.5;
    const d = Math.sqrt(x * x + y * y);
    const edge = smoothstep(radius + 0.003, radius - 0.003, d);
    const rings = Math.exp(-Math.abs(d - radius) * 25) + Math.exp(-Math.abs(d - radius + 0.04) * 20) * 0.5 + Math.exp(-Math.abs(d - radius + 0.08) * 15) * 0.25;
    const glow = rings * p * (1 - p) * 4;
    for (let c = 0; c < 3; c++) out[c] = mix(A[c]!, B[c]!, edge) + accents.bright[c]! * glow * 0.6;
  };
};

const chromaticSplit = ({ from, to, p }: ShaderInput): PixelShader => {
  const fs = p * 0.06;
  const ts = (1 - p) * 0.06;
  return (u, v, out) => {
    const cx = u - 0.5;
    const cy = v - 0.5;
    A[0] = sampleChannel(from, clamp01(u + cx * fs), clamp01(v + cy * fs), 0);
    A[1] = sampleChannel(from, u, v, 1);
    A[2] = sampleChannel(from, clamp01(u - cx * fs), clamp01(v - cy * fs), 2);
    B[0] = sampleChannel(to, clamp01(u - cx * ts), clamp01(v - cy * ts), 0);
    B[1] = sampleChannel(to, u, v, 1);
    B[2] = sampleChannel(to, clamp01(u + cx * ts), clamp01(v + cy * ts), 2);
    mixInto(out, A, B, p);
  };
};

const whipPan = ({ from, to, p }: ShaderInput): PixelShader => {
  const fromOffset = p * 1.5;
  const toOffset = (1 - p) * 1.5;
  const sumA = new Float64Array(3);
  const sumB = new Float64Array(3);
  return (u, v, out) => {
    sumA.fill(0);
    sumB.fill(0);
    for (let i = 0; i < 10; i++) {
      const f = i / 10;
      sampleRgb(from, clamp01(u + fromOffset + p * 0.08 * f), v, A);
      sampleRgb(to, clamp01(u - toOffset - (1 - p) * 0.08 * f), v, B);
      for (let c = 0; c < 3; c++) {
        sumA[c]! += A[c]!;
        sumB[c]! += B[c]!;
      }
    }
    for (let c = 0; c < 3; c++) out[c] = mix(sumA[c]! / 10, sumB[c]! / 10, p);
  };
};

const cinematicZoom = ({ from, to, p }: ShaderInput): PixelShader => {
  const fs = p * 0.08;
  const ts = (1 - p) * 0.06;
  const spread = [1.06, 1, 0.94];
  return (u, v, out) => {
    const dx = u - 0.5;
    const dy = v - 0.5;
    for (let c = 0; c < 3; c++) {
      const k = spread[c]!;
      const a = streak(from, u, v, -dx * fs * k, -dy * fs * k, 12, c);
      const b = streak(to, u, v, dx * ts * k, dy * ts * k, 12, c);
      out[c] = mix(a, b, p);
    }
  };
};

const rippleWaves = ({ from, to, p, accents }: ShaderInput): PixelShader => (u, v, out) => {
  const x = u - 0.5;
  const y = v - 0.5;
  const dist = Math.sqrt(x * x + y * y);
  const nx = x + 0.001;
  const ny = y + 0.001;
  const len = Math.sqrt(nx * nx + ny * ny);
  const fw1 = Math.exp(Math.sin(dist * 25 - p * 12) - 1);
  const fw2 = Math.exp(Math.sin(dist * 50 - p * 18) - 1) * 0.5;
  const tw1 = Math.exp(Math.sin(dist * 25 + p * 12) - 1);
  const tw2 = Math.exp(Math.sin(dist * 50 + p * 18) - 1) * 0.5;
  const fa = (fw1 + fw2) * p * 0.04;
  const ta = (tw1 + tw2) * (1 - p) * 0.04;
  sampleRgb(from, clamp01(u + (nx / len) * fa), clamp01(v + (ny / len) * fa), A);
  sampleRgb(to, clamp01(u - (nx / len) * ta), clamp01(v - (ny / len) * ta), B);
  const peak = fw1 * p;
  for (let c = 0; c < 3; c++) out[c] = mix(A[c]! + accents.bright[c]! * peak * 0.1, B[c]!, p);
};

const gravitationalLens = ({ from, to, p }: ShaderInput): PixelShader => {
  const pull = p * 2;
  const t = smoothstep(0.3, 0.9, p);
  return (u, v, out) => {
    const x = u - 0.5;
    const y = v - 0.5;
    const dist = Math.sqrt(x * x + y * y);
    const warp = (pull * 0.3) / (dist + 0.1);
    const shift = (pull * 0.02) / (dist + 0.2);
    const horizon = smoothstep(0, 0.3, dist / (1 - p * 0.85 + 0.001));
    const r = sampleChannel(from, clamp01(u - x * (warp + shift)), clamp01(v - y * (warp + shift)), 0);
    const g = sampleChannel(from, clamp01(u - x * warp), clamp01(v - y * warp), 1);
    const b = sampleChannel(from, clamp01(u - x * (warp - shift)), clamp01(v - y * (warp - shift)), 2);
    sampleRgb(to, u, v, B);
    out[0] = mix(r * horizon, B[0]!, t);
    out[1] = mix(g * horizon, B[1]!, t);
    out[2] = mix(b * horizon, B[2]!, t);
  };
};

const glitch = ({ from, to, p, height }: ShaderInput): PixelShader => {
  const rand = (x: number, y: number) => sineHash(x, y, 12.9898, 78.233);
  const inten = p * (1 - p) * 4;
  const shift = inten * 0.035;
  const flicker = 1 + (rand(Math.floor(p * 23), Math.floor(p * 23)) - 0.5) * 0.3 * inten;
  const levels = mix(256, 8, inten * 0.5);
  return (u, v, out) => {
    const lineY = Math.floor(v * 60) / 60;
    const lineDisp = (rand(lineY, Math.floor(p * 17)) - 0.5) * 0.18 * inten;
    const bx = Math.floor(u * 12);
    const by = Math.floor(v * 8);
    const step = Math.floor(p * 11);
    const on = rand(bx + step, by + step) >= 0.83 ? inten : 0;
    const du = (rand(bx * 2.1, by * 2.1) - 0.5) * 0.35 * on;
    const dv = (rand(bx * 3.7, by * 3.7) - 0.5) * 0.35 * on;
    const gu = clamp01(u + lineDisp + du);
    const gv = clamp01(v + dv);
    A[0] = sampleChannel(from, gu + shift, gv, 0);
    A[1] = sampleChannel(from, gu, gv, 1);
    A[2] = sampleChannel(from, gu - shift, gv, 2);
    const scan = fract(v * height * 0.5) >= 0.5 ? 0.05 * inten : 0;
    sampleRgb(to, u, v, B);
    for (let c = 0; c < 3; c++) out[c] = mix(Math.floor((A[c]! - scan) * flicker * levels) / levels, B[c]!, p);
  };
};

const lightLeak = ({ from, to, p, accents }: ShaderInput): PixelShader => {
  const aces = (x: number) => clamp01((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14));
  const t = smoothstep(0.15, 0.85, p);
  return (u, v, out) => {
    sampleRgb(from, u, v, A);
    sampleRgb(to, u, v, B);
    const dist = Math.sqrt((u - 1.3) ** 2 + (v + 0.2) ** 2);
    const leak = clamp01(Math.exp(-dist * 1.8) * p * 4);
    const flare = Math.exp(-Math.abs(v - (-0.2 + u * 0.3)) * 15) * leak * 0.3;
    for (let c = 0; c < 3; c++) {
      const warm = mix(accents.accent[c]!, accents.bright[c]!, dist * 0.7);
      out[c] = mix(aces(A[c]! + warm * leak * 3 + accents.bright[c]! * flare), B[c]!, t);
    }
  };
};

/** Every shader name HyperShader accepts, with its pixel function. */
export const SHADERS: Readonly<Record<string, (input: ShaderInput) => PixelShader>> = {
  "domain-warp": domainWarp,
  "ridged-burn": ridgedBurn,
  "whip-pan": whipPan,
  "sdf-iris": sdfIris,
  "ripple-waves": rippleWaves,
  "gravitational-lens": gravitationalLens,
  "cinematic-zoom": cinematicZoom,
  "chromatic-split": chromaticSplit,
  glitch,
  "swirl-vortex": swirlVortex,
  "thermal-distortion": thermalDistortion,
  "flash-through-white": flashThroughWhite,
  "cross-warp-morph": crossWarpMorph,
  "light-leak": lightLeak,
};

export const SHADER_NAMES: readonly string[] = Object.keys(SHADERS);

/**
 * Blends two scenes into `out` (RGBA, opaque) with shader `name` at progress p. Throws on an unknown name: the
 * caller reports it as a finding before any frame is drawn, so this never quietly falls back to a crossfade.
 */
export function blendScenes(name: string, input: ShaderInput, out: Uint8Array): void {
  const make = SHADERS[name];
  if (!make) throw new Error(`unknown shader transition "${name}"`);
  const shade = make(input);
  const { width, height } = input;
  const px = new Float64Array(3);
  for (let y = 0, i = 0; y < height; y++) {
    const v = (y + 0.5) / height;
    for (let x = 0; x < width; x++, i++) {
      shade((x + 0.5) / width, v, px, i);
      const o = i * 4;
      out[o] = Math.round(clamp01(px[0]!) * 255);
      out[o + 1] = Math.round(clamp01(px[1]!) * 255);
      out[o + 2] = Math.round(clamp01(px[2]!) * 255);
      out[o + 3] = 255;
    }
  }
}
