// data-color-grading on <img> and, in a render, on each frame of a <video> (shown as <img data-studio-video>): the
// picture is graded pixel by pixel as HyperFrames' shader grades it (core/composition/color-grading.ts) and shown
// in its place, so the browser lays it out as it would the original. The grade runs at the picture's own size (the
// shader's runs at the element's: the same colours wherever the picture is not resized mid-edge). Play mode leaves
// a <video> ungraded: the studio's player shows the source there. The --hf-color-grading-* properties a timeline
// animates (intensity, LUT intensity, exposure) are read at every seek, and a picture whose grade changed is
// graded again; the effect properties (blur, bloom...) are a finding.
import { EFFECT_OVERRIDES, gradePixel, parseColorGrading, readOverride, withOverrides, type ColorGrade } from "../../../core/composition/color-grading.ts";
import { parseCube, type CubeLut } from "../../../core/composition/cube-lut.ts";
import { report } from "./findings.ts";
import { logIgnored } from "./log-ignored.ts";

interface Graded {
  /** The payload's grade; `current` is it under the element's animated properties, as last shown. */
  grade: ColorGrade;
  current: ColorGrade;
  lut: Promise<CubeLut | null>;
  /** The source shown now (a frame's URL for a video) and the grade it was shown with. */
  source: string | null;
  shownWith: string;
  /** The element's original picture (a still), graded again when its grade changes. */
  still: string | null;
  /** Effect properties already reported for this element. */
  reported: boolean;
}

export interface ColorGrading {
  /** Resolves once every graded <img> shows its graded picture. */
  ready: Promise<void>;
  /** After a seek: grades again each still whose animated grade changed; resolves once they show. */
  refresh(): Promise<void>;
  /** Whether the element's pictures are graded (a render's <video> frame <img>). */
  grades(el: Element): boolean;
  /** Shows frame `url` on graded `img`, graded; resolves once it is decoded. */
  showFrame(img: HTMLImageElement, url: string): Promise<void>;
}

const luts = new Map<string, Promise<CubeLut | null>>();

function loadLut(src: string, file: string, selector: string): Promise<CubeLut | null> {
  const url = new URL(src, document.baseURI).href;
  let pending = luts.get(url);
  if (!pending) {
    pending = fetch(url)
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then((text) => {
        const parsed = parseCube(text);
        if (parsed.problem !== null) throw new Error(parsed.problem);
        return parsed.lut;
      })
      .catch((error: unknown) => {
        // HyperFrames grades without a LUT it cannot load; the author is told.
        report("feature-unsupported", file, `data-color-grading on ${selector}: its LUT ${src} cannot be read (${error instanceof Error ? error.message : String(error)}): the element is graded without it`, { selector });
        return null;
      });
    luts.set(url, pending);
  }
  return pending;
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(`${url} did not load`));
    image.src = url;
  });
}

/** Decoded pictures by URL, the last few: an animated grade draws the same still at every seek. */
const images = new Map<string, Promise<HTMLImageElement>>();
function picture(url: string): Promise<HTMLImageElement> {
  let image = images.get(url);
  if (!image) {
    if (images.size >= 16) images.delete(images.keys().next().value!);
    image = loadImage(url);
    images.set(url, image);
    image.catch(() => images.delete(url));
  }
  return image;
}

/** The picture at `url` graded, as a data URL; the original URL when it cannot be drawn. */
async function gradedCopy(url: string, grade: ColorGrade, lut: CubeLut | null): Promise<string> {
  const image = await picture(url);
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d");
  if (!context || canvas.width === 0 || canvas.height === 0) return url;
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
  const data = pixels.data;
  // Pictures repeat colours: each is graded once.
  const seen = new Map<number, number>();
  for (let i = 0; i < data.length; i += 4) {
    const key = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
    let out = seen.get(key);
    if (out === undefined) {
      const [r, g, b] = gradePixel(grade, lut, [data[i]! / 255, data[i + 1]! / 255, data[i + 2]! / 255]);
      out = (Math.round(r * 255) << 16) | (Math.round(g * 255) << 8) | Math.round(b * 255);
      seen.set(key, out);
    }
    data[i] = out >> 16;
    data[i + 1] = (out >> 8) & 255;
    data[i + 2] = out & 255;
  }
  context.putImageData(pixels, 0, 0);
  // Encoded at once: toBlob waits for the next frame, which a render's capture only begins after the seek.
  return canvas.toDataURL("image/png");
}

/** Grades `img`'s picture `url` with its current grade and shows it. */
async function show(img: HTMLImageElement, item: Graded, url: string): Promise<void> {
  const key = JSON.stringify(item.current);
  if (item.source === url && item.shownWith === key) return;
  item.source = url;
  item.shownWith = key;
  let copy = url;
  try {
    copy = await gradedCopy(url, item.current, await item.lut);
  } catch (error) {
    logIgnored("a graded picture could not be drawn; it shows ungraded", error);
  }
  if (item.source !== url || item.shownWith !== key) {
    // A later frame (or grade) was asked for meanwhile: it is the one shown.
    return;
  }
  img.setAttribute("src", copy);
  await img.decode().catch((error: unknown) => logIgnored("a graded picture does not decode; the capture draws what the browser has", error));
}

/**
 * Reads every <img data-color-grading> (a render's video frames included) and starts grading the still pictures;
 * `fileOf` names the file an element comes from (for a LUT's finding).
 */
export function installColorGrading(fileOf: (el: Element) => string): ColorGrading {
  const items = new Map<Element, Graded>();
  const selectors = new Map<Element, string>();
  // The element's animated grade now; an animated effect is said once.
  const update = (img: Element, item: Graded) => {
    const style = getComputedStyle(img);
    item.current = withOverrides(item.grade, (property) => style.getPropertyValue(property));
    if (item.reported) return;
    const effects = EFFECT_OVERRIDES.filter((property) => (readOverride(style.getPropertyValue(property), 0, 3) ?? 0) > 0);
    if (effects.length === 0) return;
    item.reported = true;
    const selector = selectors.get(img)!;
    report("feature-unsupported", fileOf(img), `data-color-grading on ${selector}: ${effects.join(", ")} ${effects.length === 1 ? "is" : "are"} not rendered by the studio (HyperFrames renders ${effects.length === 1 ? "it" : "them"}): the element is graded, without that`, { selector });
  };
  const stills: Promise<void>[] = [];
  const elements = document.querySelectorAll<HTMLImageElement>("img[data-color-grading]");
  for (let i = 0; i < elements.length; i++) {
    const img = elements[i]!;
    const { grade } = parseColorGrading(img.getAttribute("data-color-grading") ?? "");
    if (!grade) continue;
    const selector = (img.hasAttribute("data-studio-video") ? "video" : "img") + (img.id ? `#${img.id}` : "");
    const lut = grade.lut && grade.lut.intensity > 0 ? loadLut(grade.lut.src, fileOf(img), selector) : Promise.resolve(null);
    const src = img.getAttribute("src");
    const still = !img.hasAttribute("data-studio-video") && src ? new URL(src, document.baseURI).href : null;
    const item: Graded = { grade, current: grade, lut, source: null, shownWith: "", still, reported: false };
    items.set(img, item);
    selectors.set(img, selector);
    update(img, item);
    if (still) stills.push(show(img, item, still));
  }
  return {
    ready: Promise.all(stills).then(() => undefined),
    refresh: async () => {
      const pending: Promise<void>[] = [];
      items.forEach((item, img) => {
        update(img, item);
        if (item.still) pending.push(show(img as HTMLImageElement, item, item.still));
      });
      await Promise.all(pending);
    },
    grades: (el) => items.has(el),
    showFrame: (img, url) => {
      const item = items.get(img)!;
      update(img, item);
      return show(img, item, url);
    },
  };
}
