// The frame rate a render counts its frames at, settled before any browser opens the page, exactly as the render
// node settles it (render-node/src/plan/resolve-render.ts, applyDeclaredFps): the request's fps; else the root's
// data-fps when it is a valid rate (a GIF takes it only below GIF_DEFAULTS.fps); else 30 (a GIF: GIF_DEFAULTS.fps).
import { COMPOSITION_LIMITS, DEFAULT_COUNTING_FPS } from "../composition/composition-limits.ts";
import { GIF_DEFAULTS, type RenderOptions } from "./render-options.ts";

/** The rate as a number and where it came from, for a limit's message. */
export function renderRate(options: Pick<RenderOptions, "fps" | "format">, declared: number | null): { fps: number; source: string } {
  if (options.fps !== null) {
    const [num = DEFAULT_COUNTING_FPS, den = 1] = typeof options.fps === "number" ? [options.fps, 1] : options.fps.split("/").map(Number);
    return { fps: num / den, source: "the fps option" };
  }
  const gif = options.format === "gif";
  if (declared !== null && declared >= 1 && declared <= COMPOSITION_LIMITS.maxFps && (!gif || declared < GIF_DEFAULTS.fps)) {
    return { fps: declared, source: "data-fps" };
  }
  return { fps: gif ? GIF_DEFAULTS.fps : DEFAULT_COUNTING_FPS, source: gif ? "a GIF's default" : "the default" };
}
