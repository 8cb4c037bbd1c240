// What the composition paints behind its content, and the page set up to keep its transparency. HyperFrames'
// rules: a webm, mov or png-sequence leaves out the backgrounds of html and body (a preview's backdrop) and
// captures PNGs over a transparent default background, so whatever the root and its content leave unpainted is
// transparent; a snapshot keeps every background and is transparent only where nothing at all paints.
import type { CompositionInfo } from "../../../page-runtime/api.ts";
import { formatKeepsAlpha, type Format } from "../../../core/render/render-options.ts";
import type { CaptureBrowser } from "./launch-capture-browser.ts";
import type { Finding } from "../../../core/protocol/finding.ts";
import { readPageBackgrounds as readBackgroundsAnswer } from "../../../core/protocol/read-page-answers.ts";
import { pageReportFinding } from "../../../core/protocol/read-page-report.ts";

export interface PageBackgrounds {
  /** The root paints an opaque colour or gradient over the whole canvas, untouched by opacity, radius, clip or mask. */
  rootOpaque: boolean;
  /** html, body and the root element have no background at all (no colour, no image). */
  bare: boolean;
}

const STYLE_ID = "__studio_transparent_background__";

/** Reads the computed backgrounds of html, body and the root `[data-composition-id="<id>"]` on the loaded page. */
export async function readPageBackgrounds(
  capture: CaptureBrowser, compositionId: string, width: number, height: number, report: { file: string; onFinding: (finding: Finding) => void },
): Promise<PageBackgrounds> {
  const raw: unknown = await capture.page.evaluate(
    (id: string, w: number, h: number) => {
      const alphaOf = (colour: string) => {
        const parts = /rgba?\(([^)]*)\)/.exec(colour)?.[1]?.split(/[\s,/]+/).filter(Boolean) ?? [];
        return parts.length >= 4 ? Number(parts[3]) : colour === "transparent" ? 0 : 1;
      };
      const hasBackground = (el: Element | null) => {
        if (!el) return false;
        const style = getComputedStyle(el);
        return alphaOf(style.backgroundColor) > 0 || style.backgroundImage !== "none";
      };
      const root = document.querySelector(`[data-composition-id="${CSS.escape(id)}"]`);
      let rootOpaque = false;
      if (root) {
        const s = getComputedStyle(root);
        const box = root.getBoundingClientRect();
        const square = ["borderTopLeftRadius", "borderTopRightRadius", "borderBottomLeftRadius", "borderBottomRightRadius"]
          .every((k) => parseFloat(s.getPropertyValue(k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))) === 0);
        // A gradient covers the whole box when it is sized auto and repeats (the starter's root): opaque when every
        // one of its colours is. An image (url) may hold transparency: not opaque.
        const images = s.backgroundImage;
        const colours = images.match(/rgba?\([^)]*\)/g) ?? [];
        const gradientCovers = images !== "none" && !/url\(|transparent/.test(images) && colours.length > 0 &&
          colours.every((c) => alphaOf(c) === 1) && s.backgroundSize.split(",").every((v) => v.trim() === "auto") &&
          s.backgroundRepeat.split(",").every((v) => v.trim() === "repeat");
        rootOpaque = (alphaOf(s.backgroundColor) === 1 || gradientCovers) && s.opacity === "1" && square && s.clipPath === "none" &&
          (s.maskImage || "none") === "none" && s.filter === "none" && s.transform === "none" && s.visibility === "visible" &&
          box.left <= 0 && box.top <= 0 && box.right >= w && box.bottom >= h;
      }
      return { rootOpaque, bare: !hasBackground(document.documentElement) && !hasBackground(document.body) && !hasBackground(root) };
    },
    compositionId, width, height,
  );
  // The page's scripts can answer for getComputedStyle: parsed, and unreadable is "not opaque, not bare" with a finding.
  const read = readBackgroundsAnswer(raw);
  for (const problem of read.problems) report.onFinding(pageReportFinding(report.file, problem));
  return read.value;
}

/**
 * Whether a render keeps alpha: a png-sequence always; a webm or mov unless the root paints an opaque box over the
 * whole canvas (then every pixel is opaque anyway, and the faster JPEG capture and opaque encoders serve as before);
 * mp4 and gif never.
 */
export async function rendersWithAlpha(
  format: Format, capture: CaptureBrowser, info: CompositionInfo, report: { file: string; onFinding: (finding: Finding) => void },
): Promise<boolean> {
  if (!formatKeepsAlpha(format)) return false;
  if (format === "png-sequence") return true;
  return !(await readPageBackgrounds(capture, info.compositionId, info.width, info.height, report)).rootOpaque;
}

/** Transparent where nothing paints: Chromium's default white page background becomes transparent. */
export async function useTransparentDefault(capture: CaptureBrowser): Promise<void> {
  await capture.session.send("Emulation.setDefaultBackgroundColorOverride", { color: { r: 0, g: 0, b: 0, a: 0 } });
}

/** For a webm, mov or png-sequence with alpha: html and body lose their backgrounds and the default is transparent. */
export async function clearPageBackground(capture: CaptureBrowser): Promise<void> {
  await useTransparentDefault(capture);
  await capture.page.evaluate((id: string) => {
    const style = document.getElementById(id) ?? document.head.appendChild(Object.assign(document.createElement("style"), { id }));
    style.textContent = "html,body{background:transparent!important;background-image:none!important}";
  }, STYLE_ID);
}
