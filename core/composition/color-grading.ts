// data-color-grading on an <img> or <video>, as HyperFrames 0.8.170 renders it (its runtime's grading, read from its
// dist): a preset name, or JSON `{"preset":"warm-daylight","intensity":1,"adjust":{...},"lut":{"src":"x.cube",
// "intensity":0.8}}`. An adjustment given wins over the preset's; each is clamped (exposure -2 to 2, the rest -1 to
// 1); intensity (0-1, the preset's own when absent, else 1) blends the graded colour with the original. HyperFrames
// grades each pixel in a WebGL shader on the sRGB values as stored; the studio does the same arithmetic
// (gradePixel). What the studio leaves out (a preset's or payload's vignette, grain, stylising effects, tonal wheels,
// curves, HSL secondaries, palettes, `$variable` values) is named by `unsupported`. Other elements are not graded,
// in HyperFrames either. Pure.
import type { CubeLut } from "./cube-lut.ts";

export const ADJUSTMENTS = ["exposure", "contrast", "highlights", "shadows", "whites", "blacks", "temperature", "tint", "vibrance", "saturation"] as const;
export type Adjustments = Record<(typeof ADJUSTMENTS)[number], number>;

export interface ColorGrade {
  intensity: number;
  adjust: Adjustments;
  lut: { src: string; intensity: number } | null;
}

export interface ParsedColorGrading {
  /** Null when the element is not graded (no value, `enabled: false`, unreadable JSON: HyperFrames ignores those). */
  grade: ColorGrade | null;
  unsupported: string[];
}

type Preset = { adjust: Partial<Adjustments>; intensity?: number; unsupported?: string };

const VIGNETTE = "its vignette";
/** HyperFrames' presets: their adjustments as it declares them; the look they add besides is not rendered. */
const PRESETS: Record<string, Preset> = {
  "neutral": { adjust: {} },
  "warm-daylight": { adjust: { exposure: 0.06, contrast: 0.07, highlights: -0.06, shadows: 0.08, temperature: 0.18, saturation: 0.08 } },
  "clean-studio": { adjust: { contrast: 0.08, highlights: -0.08, shadows: 0.06, temperature: -0.08, tint: 0.03, saturation: 0.04 } },
  "skin-soft": { adjust: { exposure: 0.04, contrast: -0.03, highlights: -0.12, shadows: 0.12, temperature: 0.08, tint: 0.02, saturation: 0.04 } },
  "food-pop": { adjust: { exposure: 0.06, contrast: 0.1, shadows: 0.06, temperature: 0.14, vibrance: 0.1, saturation: 0.18 } },
  "night-lift": { adjust: { exposure: 0.08, contrast: 0.08, highlights: -0.18, shadows: 0.2, blacks: -0.08, saturation: 0.04 }, unsupported: VIGNETTE },
  "muted-editorial": { adjust: { exposure: -0.02, contrast: 0.08, highlights: -0.08, shadows: 0.06, blacks: -0.05, temperature: -0.03, saturation: -0.12 }, unsupported: VIGNETTE },
  "vintage-wash": { adjust: { exposure: 0.03, contrast: -0.12, highlights: -0.1, shadows: 0.16, whites: -0.04, blacks: 0.08, temperature: 0.13, vibrance: -0.08, saturation: -0.08 }, unsupported: VIGNETTE },
  "mono-clean": { adjust: { contrast: 0.12, highlights: -0.04, shadows: 0.04, blacks: -0.08, saturation: -1 } },
  "mono-fade": { adjust: { contrast: -0.04, highlights: -0.06, shadows: 0.1, blacks: 0.12, saturation: -1 }, unsupported: VIGNETTE },
  "soft-boost": { adjust: { exposure: 0.06, contrast: -0.04, highlights: -0.14, shadows: 0.16, vibrance: 0.08, saturation: 0.1 } },
  "bright-pop": { adjust: { exposure: 0.12, contrast: 0.12, whites: 0.08, blacks: -0.04, vibrance: 0.08, saturation: 0.14 } },
  "deep-contrast": { adjust: { exposure: -0.03, contrast: 0.2, highlights: -0.08, shadows: -0.08, blacks: -0.12, saturation: 0.06 } },
  "creator-camcorder": { adjust: { contrast: 0.08, highlights: -0.05, shadows: 0.02, whites: 0.03, blacks: -0.04, temperature: -0.03, tint: -0.015, vibrance: -0.03, saturation: -0.06 }, intensity: 0.72, unsupported: "its vignette, grain and chroma bleed" },
  "vhs-playback": { adjust: { contrast: -0.04, saturation: -0.08 }, unsupported: "its grain and tape effects" },
  "home-movie-8mm": { adjust: { exposure: 0.03, contrast: -0.12, highlights: -0.1, shadows: 0.16, whites: -0.04, blacks: 0.08, temperature: 0.13, vibrance: -0.08, saturation: -0.08 }, intensity: 0.72, unsupported: "its vignette, grain and film artifacts" },
  "editorial-halftone": { adjust: { contrast: 0.04, saturation: 0.04 }, unsupported: "its halftone" },
  "two-ink-print": { adjust: { contrast: 0.08, highlights: -0.06, shadows: 0.04 }, unsupported: "its two-ink print" },
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function clampNumber(raw: unknown, min: number, max: number): number {
  const value = typeof raw === "number" ? raw : Number(raw);
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : 0;
}

function unit(raw: unknown, fallback: number): number {
  const value = typeof raw === "number" ? raw : Number(raw);
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback;
}

function readLut(raw: unknown): ColorGrade["lut"] {
  if (typeof raw === "string") return raw.trim() ? { src: raw.trim(), intensity: 1 } : null;
  if (!isObject(raw) || typeof raw.src !== "string" || !raw.src.trim()) return null;
  return { src: raw.src.trim(), intensity: unit(raw.intensity, 1) };
}

/** Whether a part of the payload asks for something (any non-zero number inside it). */
function asksFor(value: unknown): boolean {
  if (typeof value === "number") return Math.abs(value) > 1e-4;
  if (Array.isArray(value)) return value.some(asksFor);
  return isObject(value) && Object.values(value).some(asksFor);
}

/** Curves are [x, y] points: the identity ([0,0], [1,1]) asks for nothing. */
function curvesAskFor(value: unknown): boolean {
  if (!isObject(value)) return false;
  return Object.values(value).some((points) => Array.isArray(points) && points.some((p) => Array.isArray(p) && Math.abs(Number(p[0]) - Number(p[1])) > 1e-4));
}

/** Reads a data-color-grading value. */
export function parseColorGrading(raw: string): ParsedColorGrading {
  const text = raw.trim();
  let payload: Record<string, unknown> | null = null;
  if (text.startsWith("{")) {
    try {
      const json: unknown = JSON.parse(text);
      payload = isObject(json) ? json : null;
    } catch {
      // HyperFrames ignores a value that is not JSON: the element shows ungraded there too.
      payload = null;
    }
  } else if (text) payload = { preset: text };
  if (!payload || payload.enabled === false) return { grade: null, unsupported: [] };
  const unsupported: string[] = [];
  const presetName = typeof payload.preset === "string" ? payload.preset.trim() : "";
  const preset = PRESETS[presetName];
  if (preset?.unsupported) unsupported.push(`the ${presetName} preset's look beyond its colour (${preset.unsupported})`);
  if (/"\$/.test(text)) unsupported.push("`$variable` values");
  const given = isObject(payload.adjust) ? payload.adjust : {};
  const adjust = {} as Adjustments;
  for (const key of ADJUSTMENTS) {
    const limit = key === "exposure" ? 2 : 1;
    adjust[key] = clampNumber(given[key] ?? preset?.adjust[key] ?? 0, -limit, limit);
  }
  for (const part of ["details", "effects", "wheels", "secondaries", "palette"] as const) {
    if (part === "palette" ? Array.isArray(payload.palette) : asksFor(payload[part])) unsupported.push(part === "details" ? "its vignette and grain (details)" : `its ${part}`);
  }
  if (curvesAskFor(payload.curves)) unsupported.push("its curves");
  if (asksFor(payload.hueCurves)) unsupported.push("its hue curves");
  const grade = { intensity: unit(payload.intensity, preset?.intensity ?? 1), adjust, lut: readLut(payload.lut) };
  return { grade, unsupported };
}

const luma = (r: number, g: number, b: number) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
const smoothstep = (edge0: number, edge1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
};
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const mix = (a: number, b: number, t: number) => a + (b - a) * t;

/** The primary correction, in HyperFrames' order: exposure, shadows/highlights, black/white points, white balance, contrast, vibrance, saturation. */
function primary(a: Adjustments, rgb: [number, number, number]): [number, number, number] {
  const gain = 2 ** a.exposure;
  let [r, g, b] = [rgb[0] * gain, rgb[1] * gain, rgb[2] * gain];
  const y = luma(r, g, b);
  const tone = a.shadows * 0.35 * (1 - smoothstep(0, 0.65, y)) + a.highlights * 0.35 * smoothstep(0.35, 1, y);
  [r, g, b] = [r + tone, g + tone, b + tone];
  const black = Math.min(0.18, Math.max(-0.18, a.blacks * 0.18));
  const white = Math.min(1.18, Math.max(0.82, 1 - a.whites * 0.18));
  const span = Math.max(white - black, 0.2);
  [r, g, b] = [(r - black) / span, (g - black) / span, (b - black) / span];
  r += a.temperature * 0.08 + a.tint * 0.04;
  b -= a.temperature * 0.08 - a.tint * 0.04;
  g -= a.tint * 0.08;
  const contrast = Math.max(0, 1 + a.contrast);
  [r, g, b] = [(r - 0.5) * contrast + 0.5, (g - 0.5) * contrast + 0.5, (b - 0.5) * contrast + 0.5];
  const satLuma = luma(r, g, b);
  const currentSat = clamp01(Math.max(r, g, b) - Math.min(r, g, b));
  const skinLike = smoothstep(0.02, 0.18, r - g) * smoothstep(0, 0.16, g - b) * smoothstep(0.18, 0.82, satLuma);
  const vibrance = Math.max(0, 1 + a.vibrance * (1 - currentSat * 0.72) * mix(1, 0.55, skinLike));
  [r, g, b] = [mix(satLuma, r, vibrance), mix(satLuma, g, vibrance), mix(satLuma, b, vibrance)];
  const saturation = Math.max(0, 1 + a.saturation);
  return [mix(satLuma, r, saturation), mix(satLuma, g, saturation), mix(satLuma, b, saturation)];
}

/** The LUT's value at grid point (r, g, b). */
function entry(lut: CubeLut, r: number, g: number, b: number, channel: number): number {
  return lut.table[((b * lut.size + g) * lut.size + r) * 3 + channel]!;
}

/** The LUT applied trilinearly over its domain, blended with the input by `intensity`. */
function applyLut(lut: CubeLut, intensity: number, rgb: [number, number, number]): [number, number, number] {
  const last = lut.size - 1;
  const scaled = rgb.map((v, i) => clamp01((v - lut.domainMin[i]!) / Math.max(lut.domainMax[i]! - lut.domainMin[i]!, 1e-5)) * last);
  const lo = scaled.map(Math.floor);
  const hi = lo.map((v) => Math.min(v + 1, last));
  const f = scaled.map((v, i) => v - lo[i]!);
  return rgb.map((value, c) => {
    const at = (r: number[], g: number[], b: number[]) => entry(lut, r[0]!, g[1]!, b[2]!, c);
    const c00 = mix(at(lo, lo, lo), at(hi, lo, lo), f[0]!);
    const c10 = mix(at(lo, hi, lo), at(hi, hi, lo), f[0]!);
    const c01 = mix(at(lo, lo, hi), at(hi, lo, hi), f[0]!);
    const c11 = mix(at(lo, hi, hi), at(hi, hi, hi), f[0]!);
    const graded = mix(mix(c00, c10, f[1]!), mix(c01, c11, f[1]!), f[2]!);
    return mix(value, graded, intensity);
  }) as [number, number, number];
}

/**
 * One pixel's colour (sRGB values 0-1 as stored) as HyperFrames' shader grades it: the primary correction, then the
 * LUT (when loaded) on the clamped result, clamped, blended with the original by the intensity. `lut` is null when
 * the grade has none or it could not be loaded (HyperFrames then grades without it).
 */
export function gradePixel(grade: ColorGrade, lut: CubeLut | null, rgb: [number, number, number]): [number, number, number] {
  let graded = primary(grade.adjust, rgb).map(clamp01) as [number, number, number];
  if (lut && grade.lut && grade.lut.intensity > 0) graded = applyLut(lut, grade.lut.intensity, graded);
  return graded.map((v, i) => mix(rgb[i]!, clamp01(v), grade.intensity)) as [number, number, number];
}

/** The CSS properties that animate a grade (HyperFrames' seek-safe treatment keyframes), with their ranges. */
const OVERRIDES = [
  { name: "--hf-color-grading-intensity", min: 0, max: 1 },
  { name: "--hf-color-grading-lut-intensity", min: 0, max: 1 },
  { name: "--hf-color-grading-exposure", min: -2, max: 2 },
] as const;
/** The effect properties it also animates: not rendered by the studio. */
export const EFFECT_OVERRIDES = ["blur", "bloom", "kuwahara", "pixelate", "ascii", "dither"].map((effect) => `--hf-color-grading-${effect}`);

/** A property's value as HyperFrames reads it (a number, clamped), or null when unset or not a number. */
export function readOverride(raw: string, min: number, max: number): number | null {
  const text = raw.trim();
  const value = text ? Number(text) : Number.NaN;
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : null;
}

/** The grade with the element's --hf-color-grading-* values (`read` gives a property's computed value) over the payload's. */
export function withOverrides(grade: ColorGrade, read: (property: string) => string): ColorGrade {
  const [intensity, lutIntensity, exposure] = OVERRIDES.map(({ name, min, max }) => readOverride(read(name), min, max));
  return {
    intensity: intensity ?? grade.intensity,
    adjust: exposure === null || exposure === undefined ? grade.adjust : { ...grade.adjust, exposure },
    lut: grade.lut && lutIntensity !== null && lutIntensity !== undefined ? { ...grade.lut, intensity: lutIntensity } : grade.lut,
  };
}
