// A 3D LUT in the .cube text format (Adobe/Resolve), as HyperFrames 0.8.170 loads one for data-color-grading:
// `LUT_3D_SIZE n` then n³ rows "r g b" with red changing fastest, optional DOMAIN_MIN / DOMAIN_MAX (or
// LUT_3D_INPUT_RANGE) and TITLE; `#` starts a comment. HyperFrames uploads the table as an 8-bit texture, so each
// value is kept as round(clamp(v, 0, 1) · 255) / 255, the value its shader reads. 1D LUTs are refused, as there.
// Pure.

export interface CubeLut {
  size: number;
  domainMin: [number, number, number];
  domainMax: [number, number, number];
  /** n³ RGB triples, red fastest, each quantized to 8 bits (0-1). */
  table: Float32Array;
}

/** The largest LUT_3D_SIZE read (HyperFrames' limit: 65³ rows). */
export const MAX_CUBE_SIZE = 65;

export type CubeResult = { lut: CubeLut; problem: null } | { lut: null; problem: string };

const quantize = (value: number) => Math.round(Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0)) * 255) / 255;

function triple(words: string[], keyword: string): [number, number, number] | string {
  const values = words.map(Number);
  if (values.length !== 3 || !values.every(Number.isFinite)) return `${keyword} expects three numbers`;
  return values as [number, number, number];
}

/** Reads a .cube file's text; a file HyperFrames would refuse comes back with its problem. */
export function parseCube(text: string): CubeResult {
  const fail = (problem: string): CubeResult => ({ lut: null, problem });
  let size = 0;
  let domainMin: [number, number, number] = [0, 0, 0];
  let domainMax: [number, number, number] = [1, 1, 1];
  const rows: number[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const [keyword = "", ...rest] = line.split(/\s+/);
    if (keyword === "TITLE") continue;
    if (keyword === "LUT_3D_SIZE") {
      size = Number(rest[0]);
      if (!Number.isInteger(size) || size < 2 || size > MAX_CUBE_SIZE) return fail(`LUT_3D_SIZE ${rest[0]} is not a size from 2 to ${MAX_CUBE_SIZE}`);
      continue;
    }
    if (keyword === "DOMAIN_MIN" || keyword === "DOMAIN_MAX") {
      const value = triple(rest, keyword);
      if (typeof value === "string") return fail(value);
      if (keyword === "DOMAIN_MIN") domainMin = value;
      else domainMax = value;
      continue;
    }
    if (keyword === "LUT_3D_INPUT_RANGE") {
      const [low, high] = rest.map(Number);
      if (rest.length !== 2 || !Number.isFinite(low) || !Number.isFinite(high) || high! <= low!) return fail("LUT_3D_INPUT_RANGE expects two increasing numbers");
      domainMin = [low!, low!, low!];
      domainMax = [high!, high!, high!];
      continue;
    }
    if (keyword === "LUT_1D_SIZE") return fail("1D LUTs are not supported (HyperFrames refuses them too)");
    if (keyword.startsWith("LUT_")) return fail(`unsupported keyword ${keyword}`);
    if (/^[A-Z_]+$/.test(keyword)) continue;
    if (!size) return fail(`line ${index + 1}: LUT data before LUT_3D_SIZE`);
    const value = triple([keyword, ...rest], `line ${index + 1}`);
    if (typeof value === "string") return fail(value);
    rows.push(...value);
  }
  if (!size) return fail("no LUT_3D_SIZE");
  if (rows.length !== size ** 3 * 3) return fail(`expected ${size ** 3} rows for size ${size}, found ${rows.length / 3}`);
  if (domainMin.some((low, i) => domainMax[i]! <= low)) return fail("DOMAIN_MAX must exceed DOMAIN_MIN");
  return { lut: { size, domainMin, domainMax, table: Float32Array.from(rows, quantize) }, problem: null };
}
