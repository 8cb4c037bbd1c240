// One frame inside a shader transition, as HyperFrames' page-side compositor makes it: each of the two scenes
// captured alone over the scenes' background colour (every other element along the way hidden, the scene itself
// fully shown whatever its fade), the two blended by the transition's shader (in a worker thread), and the blend
// shown over the whole page on a canvas, captured like any frame (JPEG, or PNG with alpha) so the encoder gets
// what it always gets. The page's timeline has been sought to the frame's time before this runs. Every image is
// drawn by the caller's `draw` (capture-frame.ts drawFrame in the caller's browser, at the caller's rate), so a
// transition frame is drawn exactly as the frames around it.
import type { Page } from "puppeteer-core";
import type { DrawRequest } from "../capture-frame.ts";
import { decodePng, type DecodedPng } from "./decode-png.ts";
import type { Blender } from "./blend-pool.ts";
import type { ShaderTransition, TransitionSetup } from "./transition-plan.ts";

/**
 * The transition showing at `time` and its progress, or null (the frame is the page as it is). A transition is
 * active at t when time <= t <= time + duration (both ends included, as HyperFrames' page-side compositor
 * decides), its progress linear in time, 0 to 1. Pure.
 */
export function transitionAt(setup: TransitionSetup | null | undefined, time: number): { transition: ShaderTransition; progress: number } | null {
  if (!setup) return null;
  for (const transition of setup.transitions) {
    const end = transition.time + transition.duration;
    if (time < transition.time - 1e-9 || time > end + 1e-9) continue;
    const progress = transition.duration === 0 ? 1 : Math.min(1, Math.max(0, (time - transition.time) / transition.duration));
    return { transition, progress };
  }
  return null;
}

const OVERLAY_ID = "__studio-shader-transition";
const RETRIES = 3;

type Undo = [HTMLElement, string, string, string][];
type IsolatingWindow = Window & { __studioIsolation?: Undo };

/** In the page: hides everything but scene `id` and its ancestors, whose own backgrounds give way to `bg`. */
function isolateScene(id: string, bg: string): boolean {
  const scene = document.getElementById(id);
  if (!scene) return false;
  const undo: Undo = [];
  const set = (el: HTMLElement, prop: string, value: string) => {
    undo.push([el, prop, el.style.getPropertyValue(prop), el.style.getPropertyPriority(prop)]);
    el.style.setProperty(prop, value, "important");
  };
  for (let node: HTMLElement = scene; node.parentElement; node = node.parentElement) {
    const parent = node.parentElement;
    for (const sibling of Array.from(parent.children)) {
      if (sibling !== node && sibling instanceof HTMLElement) set(sibling, "opacity", "0");
    }
    set(parent, "background", parent === document.documentElement ? bg : "transparent");
  }
  set(scene, "opacity", "1");
  set(scene, "visibility", "visible");
  (window as IsolatingWindow).__studioIsolation = undo;
  return true;
}

/** In the page: puts back every inline style isolateScene changed. */
function restoreScenes(): void {
  const w = window as IsolatingWindow;
  for (const [el, prop, value, priority] of (w.__studioIsolation ?? []).reverse()) {
    if (value) el.style.setProperty(prop, value, priority);
    else el.style.removeProperty(prop);
  }
  w.__studioIsolation = [];
}

/** In the page: shows `rgba` (base64, width x height) on a canvas over the whole viewport, or removes it (null). */
function showBlend(id: string, rgba: string | null, width: number, height: number): void {
  let canvas = document.getElementById(id) as HTMLCanvasElement | null;
  if (rgba === null) {
    canvas?.remove();
    return;
  }
  if (!canvas) {
    canvas = document.createElement("canvas");
    canvas.id = id;
    canvas.style.cssText = "position:fixed;left:0;top:0;width:100vw;height:100vh;z-index:2147483647;pointer-events:none;margin:0;";
    document.documentElement.appendChild(canvas);
  }
  canvas.width = width;
  canvas.height = height;
  const binary = atob(rgba);
  const bytes = new Uint8ClampedArray(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  canvas.getContext("2d")?.putImageData(new ImageData(bytes, width, height), 0, 0);
}

const NOTHING_DRAWN = "Chromium drew no image for a shader transition frame";

/** Draws the page as it is now (capture-frame.ts drawFrame, bound to a browser and its frame clock). */
export type DrawPage = (request: DrawRequest) => Promise<Buffer | null>;

/** The transition's two scenes, each captured alone (a PNG over the scenes' background) and decoded for the blend. */
async function captureScenes(page: Page, draw: DrawPage, transition: ShaderTransition, bg: string): Promise<DecodedPng[]> {
  const scenes: DecodedPng[] = [];
  for (const id of [transition.fromScene, transition.toScene]) {
    if ((await page.evaluate(isolateScene, id, bg)) !== true) throw new Error(`shader transition scene #${id} is not in the page`);
    try {
      const png = await draw({ jpegQuality: 0, png: true, attempts: RETRIES });
      if (!png) throw new Error(NOTHING_DRAWN);
      scenes.push(decodePng(png));
    } finally {
      await page.evaluate(restoreScenes);
    }
  }
  return scenes;
}

export interface TransitionFrame {
  setup: TransitionSetup;
  transition: ShaderTransition;
  progress: number;
}

/** The frame's bytes (JPEG, or PNG when `png`), the two scenes blended. */
export async function captureTransitionFrame(
  page: Page, draw: DrawPage, frame: TransitionFrame, blender: Blender, jpegQuality: number, png: boolean,
): Promise<Buffer> {
  const { setup, transition, progress } = frame;
  const [from, to] = await captureScenes(page, draw, transition, setup.bgColor);
  if (!from || !to || from.width !== to.width || from.height !== to.height) throw new Error("the two scenes of a shader transition were captured at different sizes");
  const { width, height } = from;
  const out = await blender.blend({ shader: transition.shader, from: from.data, to: to.data, width, height, progress, accents: setup.accents });
  await page.evaluate(showBlend, OVERLAY_ID, Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString("base64"), width, height);
  try {
    const frame = await draw({ jpegQuality, png, attempts: RETRIES });
    if (!frame) throw new Error(NOTHING_DRAWN);
    return frame;
  } finally {
    await page.evaluate(showBlend, OVERLAY_ID, null, 0, 0);
  }
}
