// HyperShader's noise-driven transitions (see shader-blends.ts for the others and the table): value noise and its
// fractal sums warp, edge or tint the blend. The noise does not change with progress, so each field is computed
// once per shader and frame size (pixelField) and kept for the transition's other frames. Pure.
import { clamp01, fbm, mix, mixInto, pixelField, ridged, sampleRgb, smoothstep, valueNoise, type Accents, type PixelShader, type ShaderInput, type Texture } from "./shader-math.ts";

const A = new Float64Array(3);
const B = new Float64Array(3);

/** Samples both scenes at uv rotated about the centre by an angle of the distance and noise (swirl-vortex). */
export const swirlVortex = ({ from, to, p, width, height }: ShaderInput): PixelShader => {
  const warps = pixelField("swirl", width, height, (u, v) => fbm(u * 4, v * 4) * 0.5);
  return (u, v, out, i) => swirl(from, to, p, u, v, warps[i]!, out);
};

function swirl(from: Texture, to: Texture, p: number, u: number, v: number, warp: number, out: Float64Array): void {
  const x = u - 0.5;
  const y = v - 0.5;
  const dist = Math.sqrt(x * x + y * y);
  const fa = p * (1 - dist) * 10 + warp * p * 3;
  const ta = -(1 - p) * (1 - dist) * 10 - warp * (1 - p) * 3;
  sampleRgb(from, clamp01(x * Math.cos(fa) - y * Math.sin(fa) + 0.5), clamp01(x * Math.sin(fa) + y * Math.cos(fa) + 0.5), A);
  sampleRgb(to, clamp01(x * Math.cos(ta) - y * Math.sin(ta) + 0.5), clamp01(x * Math.sin(ta) + y * Math.cos(ta) + 0.5), B);
  mixInto(out, A, B, p);
}

export const thermalDistortion = ({ from, to, p, accents, width, height }: ShaderInput): PixelShader => {
  const heat = p * 1.5;
  const waves = pixelField("thermal-a", width, height, (u, v) => Math.sin(v * 40 + fbm(u * 6, v * 6) * 8));
  const backWaves = pixelField("thermal-b", width, height, (u, v) => Math.sin(v * 40 + fbm(u * 6 + 3, v * 6 + 3) * 8));
  return (u, v, out, i) => {
    const fade = smoothstep(1, 0, v);
    const shimmer = waves[i]! * fbm(u * 3, v * 3 + p * 2);
    const back = backWaves[i]! * fbm(u * 3 + 3, v * 3 + p * 2);
    sampleRgb(from, clamp01(u + shimmer * heat * 0.03 * fade), v, A);
    sampleRgb(to, clamp01(u + back * (1 - p) * 0.03 * fade), v, B);
    const haze = heat * fade * 0.15 * (1 - p);
    for (let c = 0; c < 3; c++) out[c] = mix(A[c]!, B[c]!, p) + accents.bright[c]! * haze;
  };
};

export const crossWarpMorph = ({ from, to, p, width, height }: ShaderInput): PixelShader => {
  const dxs = pixelField("cross-warp-x", width, height, (u, v) => fbm(u * 3, v * 3) - 0.5);
  const dys = pixelField("cross-warp-y", width, height, (u, v) => fbm(u * 3 + 7.3, v * 3 + 3.7) - 0.5);
  const ns = pixelField("cross-warp-n", width, height, (u, v) => fbm(u * 4 + 3.1, v * 4 + 1.7));
  return (u, v, out, i) => {
    const dx = dxs[i]!;
    const dy = dys[i]!;
    sampleRgb(from, clamp01(u + dx * p * 0.5), clamp01(v + dy * p * 0.5), A);
    sampleRgb(to, clamp01(u - dx * (1 - p) * 0.5), clamp01(v - dy * (1 - p) * 0.5), B);
    mixInto(out, A, B, smoothstep(0.4, 0.6, ns[i]! + p * 1.2 - 0.6));
  };
};

/** domain-warp's noise: the warp q (two fbm) and the field n its edge follows (three more, warped by q). */
function domainWarpFields(width: number, height: number): [Float32Array, Float32Array, Float32Array] {
  const qxs = pixelField("domain-warp-qx", width, height, (u, v) => fbm(u * 3, v * 3));
  const qys = pixelField("domain-warp-qy", width, height, (u, v) => fbm(u * 3 + 5.2, v * 3 + 1.3));
  let i = 0;
  const ns = pixelField("domain-warp-n", width, height, (u, v) => {
    const qx = qxs[i]!;
    const qy = qys[i++]!;
    const rx = fbm(u * 3 + qx * 4 + 1.7, v * 3 + qy * 4 + 9.2);
    const ry = fbm(u * 3 + qx * 4 + 8.3, v * 3 + qy * 4 + 2.8);
    return fbm(u * 3 + rx * 2, v * 3 + ry * 2);
  });
  return [qxs, qys, ns];
}

export const domainWarp = ({ from, to, p, accents, width, height }: ShaderInput): PixelShader => {
  const [qxs, qys, ns] = domainWarpFields(width, height);
  return (u, v, out, i) => {
    const n = ns[i]!;
    const wx = (qxs[i]! - 0.5) * 0.4;
    const wy = (qys[i]! - 0.5) * 0.4;
    sampleRgb(from, clamp01(u + wx * p), clamp01(v + wy * p), A);
    sampleRgb(to, clamp01(u - wx * (1 - p)), clamp01(v - wy * (1 - p)), B);
    const e = smoothstep(p - 0.08, p + 0.08, n);
    const ed = Math.abs(n - p);
    const em = smoothstep(0.1, 0, ed) * (p >= 1 ? 0 : 1);
    const k = smoothstep(0, 0.1, ed);
    for (let c = 0; c < 3; c++) out[c] = mix(B[c]!, A[c]!, e) + mix(accents.dark[c]!, accents.bright[c]!, k) * em * 2;
  };
};

export const ridgedBurn = ({ from, to, p, accents, width, height }: ShaderInput): PixelShader => {
  const ns = pixelField("ridged-burn-n", width, height, (u, v) => ridged(u * 4, v * 4));
  const sparkles = pixelField("ridged-burn-sparks", width, height, (u, v) => (valueNoise(u * 80, v * 80) >= 0.92 ? 1 : 0));
  return (u, v, out, i) => burn(from, to, p, accents, u, v, ns[i]!, sparkles[i]!, out);
};

function burn(from: Texture, to: Texture, p: number, accents: Accents, u: number, v: number, n: number, sparkle: number, out: Float64Array): void {
  sampleRgb(from, u, v, A);
  sampleRgb(to, u, v, B);
  const e = smoothstep(p - 0.04, p + 0.04, n);
  const heat = smoothstep(0.12, 0, Math.abs(n - p)) * (p >= 1 ? 0 : 1);
  const sparks = sparkle * heat * 3;
  for (let c = 0; c < 3; c++) {
    let glow = mix(accents.dark[c]!, accents.accent[c]!, smoothstep(0, 0.25, heat));
    glow = mix(glow, accents.bright[c]!, smoothstep(0.25, 0.5, heat));
    glow = mix(glow, 1, smoothstep(0.5, 1, heat));
    out[c] = mix(B[c]!, A[c]!, e) + glow * heat * 3.5 + accents.bright[c]! * sparks;
  }
}
