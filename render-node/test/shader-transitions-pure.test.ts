// The pure parts of shader transitions: the blend math on small buffers, texture sampling as WebGL samples, the
// PNG decoder (every row filter), the HyperShader CDN URL, and the plan (which frames blend, how far along, and
// what is a finding).
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { isShaderTransitionsUrl } from "../../core/composition/match-shader-transitions-url.ts";
import { SHADER_TRANSITION_NAMES } from "../../core/composition/shader-transition-names.ts";
import { decodePng } from "../src/capture/shader-transitions/decode-png.ts";
import { blendScenes, SHADER_NAMES, type Accents } from "../src/capture/shader-transitions/shader-blends.ts";
import { sampleChannel, type Texture } from "../src/capture/shader-transitions/shader-math.ts";
import { accentsOf, planShaderTransitions } from "../src/capture/shader-transitions/transition-plan.ts";
import { transitionAt } from "../src/capture/shader-transitions/capture-transition-frame.ts";

const ACCENTS: Accents = accentsOf(null);

function flat(width: number, height: number, rgb: [number, number, number]): Texture {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...rgb, 255], i * 4);
  return { data, width, height };
}

function blend(name: string, from: Texture, to: Texture, p: number): Uint8Array {
  const out = new Uint8Array(from.width * from.height * 4);
  blendScenes(name, { from, to, p, width: from.width, height: from.height, accents: ACCENTS }, out);
  return out;
}

const pixel = (out: Uint8Array, width: number, x: number, y: number) => Array.from(out.subarray((y * width + x) * 4, (y * width + x) * 4 + 4));

describe("blend math", () => {
  const red = flat(8, 4, [255, 0, 0]);
  const blue = flat(8, 4, [0, 0, 255]);

  it("chromatic-split is the from-scene at 0, the to-scene at 1, their mean halfway on flat colour", () => {
    expect(pixel(blend("chromatic-split", red, blue, 0), 8, 3, 2)).toEqual([255, 0, 0, 255]);
    expect(pixel(blend("chromatic-split", red, blue, 1), 8, 3, 2)).toEqual([0, 0, 255, 255]);
    expect(pixel(blend("chromatic-split", red, blue, 0.5), 8, 3, 2)).toEqual([128, 0, 128, 255]);
  });

  it("flash-through-white is white at the middle and each scene at its end", () => {
    expect(pixel(blend("flash-through-white", red, blue, 0.5), 8, 0, 0)).toEqual([255, 255, 255, 255]);
    expect(pixel(blend("flash-through-white", red, blue, 0), 8, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(pixel(blend("flash-through-white", red, blue, 1), 8, 0, 0)).toEqual([0, 0, 255, 255]);
  });

  it("sdf-iris opens from the centre: the to-scene inside the circle, the from-scene outside, a ring of accent between", () => {
    const big = { from: flat(64, 36, [255, 0, 0]), to: flat(64, 36, [0, 0, 255]) };
    const out = blend("sdf-iris", big.from, big.to, 0.3);
    const centre = pixel(out, 64, 32, 18); // inside radius 0.36: the to-scene, a trace of the ring's far glow
    expect(centre[2]).toBe(255);
    expect(Math.max(centre[0]!, centre[1]!)).toBeLessThan(4);
    const corner = pixel(out, 64, 0, 0);
    expect(corner[0]).toBe(255); // corner: outside, the from-scene (plus glow, clamped)
    expect(corner[2]).toBeLessThan(200);
    expect(pixel(blend("sdf-iris", big.from, big.to, 1), 64, 0, 0)).toEqual([0, 0, 255, 255]);
  });

  it("whip-pan slides the to-scene in from the left: at 0.5 the left edge is the to-scene's first column", () => {
    const stripes = flat(8, 2, [0, 0, 0]);
    stripes.data.set([255, 255, 255, 255], 0); // pixel (0, 0) white
    const out = blend("whip-pan", red, stripes, 1);
    expect(pixel(out, 8, 0, 0)).toEqual([255, 255, 255, 255]); // at 1 the to-scene sits still
    expect(pixel(out, 8, 5, 0)).toEqual([0, 0, 0, 255]);
  });

  it("every shader draws an opaque frame of finite values and reaches the to-scene where it says it ends", () => {
    for (const name of SHADER_NAMES) {
      for (const p of [0, 0.37, 1]) {
        const out = blend(name, red, blue, p);
        for (let i = 3; i < out.length; i += 4) expect(out[i], `${name} alpha`).toBe(255);
        expect(out.every((v) => Number.isInteger(v)), name).toBe(true);
      }
    }
    // Shaders that end on the plain to-scene (no glow left at p = 1).
    for (const name of ["chromatic-split", "whip-pan", "cinematic-zoom", "gravitational-lens", "glitch", "swirl-vortex", "cross-warp-morph", "light-leak", "sdf-iris", "flash-through-white", "thermal-distortion", "ripple-waves"]) {
      expect(pixel(blend(name, red, blue, 1), 8, 4, 2), name).toEqual([0, 0, 255, 255]);
    }
  });

  it("refuses a shader it does not know instead of drawing something else", () => {
    expect(() => blend("crossfade", red, blue, 0.5)).toThrow('unknown shader transition "crossfade"');
  });
});

describe("texture sampling", () => {
  const tex: Texture = { data: new Uint8Array([0, 0, 0, 255, 200, 100, 50, 255]), width: 2, height: 1 };
  it("reads texel centres exactly, interpolates between them and clamps past the edges, as WebGL's LINEAR + CLAMP_TO_EDGE", () => {
    expect(sampleChannel(tex, 0.25, 0.5, 0)).toBeCloseTo(0);
    expect(sampleChannel(tex, 0.75, 0.5, 0)).toBeCloseTo(200 / 255);
    expect(sampleChannel(tex, 0.5, 0.5, 1)).toBeCloseTo(50 / 255);
    expect(sampleChannel(tex, 1.5, -3, 2)).toBeCloseTo(50 / 255);
  });
});

/** A PNG of `rows` (RGB or RGBA), each row written with the filter type at its index in `filters`. */
function encodePng(width: number, rows: number[][], channels: 3 | 4, filters: number[]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "latin1");
    return Buffer.concat([head, data, Buffer.alloc(4)]); // CRC unchecked by the decoder
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(rows.length, 4);
  ihdr.set([8, channels === 4 ? 6 : 2, 0, 0, 0], 8);
  const raw: number[] = [];
  rows.forEach((row, y) => {
    const filter = filters[y % filters.length]!;
    const prev = rows[y - 1] ?? row.map(() => 0);
    raw.push(filter);
    row.forEach((value, i) => {
      const a = i >= channels ? row[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter]!;
      raw.push((value - predicted) & 0xff);
    });
  });
  const sig = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([sig, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.from(raw))), chunk("IEND", Buffer.alloc(0))]);
}

describe("PNG decoding", () => {
  it("undoes every row filter, RGB and RGBA, and refuses what Chromium never writes", () => {
    const rows = Array.from({ length: 5 }, (_, y) => Array.from({ length: 3 * 4 }, (_, i) => (y * 53 + i * 31 + (i % 4) * 7) & 0xff));
    const rgba = decodePng(encodePng(3, rows, 4, [0, 1, 2, 3, 4]));
    expect(rgba.width).toBe(3);
    expect(Array.from(rgba.data)).toEqual(rows.flat());
    const rgbRows = rows.map((r) => r.slice(0, 9));
    const rgb = decodePng(encodePng(3, rgbRows, 3, [4, 3, 2, 1, 0]));
    expect(Array.from(rgb.data.subarray(0, 8))).toEqual([...rgbRows[0]!.slice(0, 3), 255, ...rgbRows[0]!.slice(3, 6), 255]);
    const palette = encodePng(1, [[1, 2, 3]], 3, [0]);
    palette[25] = 3;
    expect(() => decodePng(palette)).toThrow("unsupported PNG");
    expect(() => decodePng(Buffer.from("GIF89a not a png at all, quite long enough"))).toThrow("not a PNG");
  });
});

describe("HyperShader's script URL", () => {
  it("is the browser build on jsDelivr or unpkg, any version; nothing else", () => {
    for (const url of [
      "https://cdn.jsdelivr.net/npm/@hyperframes/shader-transitions/dist/index.global.js",
      "https://cdn.jsdelivr.net/npm/@hyperframes/shader-transitions@0.8.41/dist/index.global.js",
      "//unpkg.com/@hyperframes/shader-transitions@latest/dist/index.global.js",
    ]) expect(isShaderTransitionsUrl(url), url).toBe(true);
    for (const url of [
      "https://cdn.jsdelivr.net/npm/@hyperframes/shader-transitions/dist/index.js",
      "https://cdn.jsdelivr.net/npm/@hyperframes/shader-transitions-evil/dist/index.global.js",
      "https://evil.example/npm/@hyperframes/shader-transitions/dist/index.global.js",
      "https://cdn.jsdelivr.net/npm/@other/shader-transitions/dist/index.global.js",
      "https://cdn.jsdelivr.net/npm/@hyperframes/shader-transitions/dist/index.global.js/../../x.js",
      "javascript:alert(1)",
    ]) expect(isShaderTransitionsUrl(url), url).toBe(false);
  });
});

describe("the plan", () => {
  const declared = {
    bgColor: "#101828",
    accentColor: "#6366f1",
    transitions: [
      { time: 1, duration: 0.5, shader: "sdf-iris", fromScene: "a", toScene: "b" },
      { time: 3, duration: 0.5, shader: null, fromScene: "b", toScene: "c" },
      { time: 5, duration: 0.5, shader: "wobble", fromScene: "c", toScene: "d" },
    ],
  };

  it("blends the known shaders, leaves crossfades to the page, reports an unknown name as a finding", () => {
    const { setup, findings } = planShaderTransitions(declared, "index.html");
    expect(setup?.transitions.map((t) => t.shader)).toEqual(["sdf-iris"]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ code: "shader-transition-unsupported", severity: "warning", file: "index.html" });
    expect(findings[0]!.message).toContain('"wobble" (at 5 s, #c to #d)');
    expect(setup?.accents.accent.map((c) => Math.round(c * 255))).toEqual([0x63, 0x66, 0xf1]);
    expect(planShaderTransitions(null, "index.html")).toEqual({ setup: null, findings: [] });
  });

  it("is active from its start to its end, both included, with progress linear in time", () => {
    const { setup } = planShaderTransitions(declared, "index.html");
    expect(transitionAt(setup, 0.99)).toBeNull();
    expect(transitionAt(setup, 1)?.progress).toBe(0);
    expect(transitionAt(setup, 1.25)?.progress).toBeCloseTo(0.5);
    expect(transitionAt(setup, 1.5)?.progress).toBe(1);
    expect(transitionAt(setup, 1.5 + 1 / 30)).toBeNull();
    expect(transitionAt(setup, 3.2)).toBeNull(); // the crossfade: the page draws it
  });
});

describe("the shader table", () => {
  it("draws exactly the names HyperShader accepts (the list the page script reports)", () => {
    expect([...SHADER_NAMES]).toEqual([...SHADER_TRANSITION_NAMES]);
  });
});
