// The shader transitions a render blends: from what the page's HyperShader recorded (hyper-shader-page-script.ts)
// to the node's plan (which frame shows one is capture-transition-frame.ts transitionAt). A shader name the node
// has no blend for is a finding, and that transition is left to the page as HyperFrames leaves it (never blended
// as something else). Pure.
import { makeFinding, type Finding } from "../../../../core/protocol/finding.ts";
import type { PageShaderTransitions } from "../../../../core/composition/hyper-shader-page-script.ts";
import { SHADERS, type Accents, type Rgb } from "./shader-blends.ts";

export interface ShaderTransition {
  time: number;
  duration: number;
  shader: string;
  fromScene: string;
  toScene: string;
}

export interface TransitionSetup {
  /** The scenes' background (HyperShader's bgColor), painted under each scene as it is captured alone. */
  bgColor: string;
  accents: Accents;
  transitions: ShaderTransition[];
}

/** At most this many transitions are blended (a composition declaring more is refused with a finding). */
const MAX_TRANSITIONS = 200;

function parseHex(hex: string | null): Rgb | null {
  const h = (hex ?? "").trim().replace(/^#/, "");
  if (!/^[0-9a-fA-F]{6}/.test(h)) return null;
  return [parseInt(h.slice(0, 2), 16) / 255, parseInt(h.slice(2, 4), 16) / 255, parseInt(h.slice(4, 6), 16) / 255];
}

/** HyperShader's accent triple: the colour, 35 % of it, and 1.5x + 0.2 (capped at 1); its orange without one. */
export function accentsOf(accentColor: string | null): Accents {
  const rgb = parseHex(accentColor);
  if (!rgb) return accentColor === null ? { accent: [1, 0.6, 0.2], dark: [0.4, 0.15, 0], bright: [1, 0.85, 0.5] } : { accent: [0.5, 0.5, 0.5], dark: [0.175, 0.175, 0.175], bright: [0.95, 0.95, 0.95] };
  const [r, g, b] = rgb;
  return { accent: rgb, dark: [r * 0.35, g * 0.35, b * 0.35], bright: [Math.min(1, r * 1.5 + 0.2), Math.min(1, g * 1.5 + 0.2), Math.min(1, b * 1.5 + 0.2)] };
}

/** The transitions the node blends, and a finding for each it cannot. Null setup: nothing to blend. */
export function planShaderTransitions(page: PageShaderTransitions | null, file: string): { setup: TransitionSetup | null; findings: Finding[] } {
  if (!page || !Array.isArray(page.transitions)) return { setup: null, findings: [] };
  const findings: Finding[] = [];
  const transitions: ShaderTransition[] = [];
  for (const t of page.transitions.slice(0, MAX_TRANSITIONS)) {
    if (t.shader === null) continue; // a crossfade: the page's own opacity tweens draw it
    const where = `at ${t.time} s, #${t.fromScene} to #${t.toScene}`;
    if (!Object.hasOwn(SHADERS, t.shader)) {
      findings.push(makeFinding("shader-transition-unsupported", file, `shader transition "${t.shader}" (${where}) is not one this renderer draws (${Object.keys(SHADERS).join(", ")}); the scenes switch without it`));
      continue;
    }
    if (!Number.isFinite(t.time) || !Number.isFinite(t.duration) || t.duration < 0) {
      findings.push(makeFinding("shader-transition-unsupported", file, `shader transition "${t.shader}" (${where}) has no usable time and duration (${t.duration} s); the scenes switch without it`));
      continue;
    }
    transitions.push({ time: t.time, duration: t.duration, shader: t.shader, fromScene: t.fromScene, toScene: t.toScene });
  }
  if (page.transitions.length > MAX_TRANSITIONS) {
    findings.push(makeFinding("shader-transition-unsupported", file, `${page.transitions.length} transitions declared; only the first ${MAX_TRANSITIONS} are drawn`));
  }
  if (transitions.length === 0) return { setup: null, findings };
  return { setup: { bgColor: String(page.bgColor), accents: accentsOf(page.accentColor), transitions }, findings };
}
