// Turns what the page measured at one time into layout findings: clipped or overflowing text, elements off the
// canvas, text overlapping text. Pure; the node collects the measurements in Chromium.
import { checkFinding, type Box, type CheckFinding } from "./check-findings.ts";

/** One visible element as measured in the page (CSS pixels of the composition canvas). */
export interface MeasuredElement {
  id: number;
  /** Ids of every ancestor element, so a box is never compared with its own container. */
  ancestors: number[];
  selector: string;
  /** The composition file it came from (index.html, or the sub-composition's file). */
  file: string;
  box: Box;
  /** The box of its own text (direct text nodes), when it has any. */
  textBox: Box | null;
  /** Content wider/taller than the box, in px (scroll size − client size). */
  overflowX: number;
  overflowY: number;
  /** overflow hidden/clip on that axis: the excess is cut off rather than spilling out. */
  clipsX: boolean;
  clipsY: boolean;
  /** An ancestor cuts it off (overflow hidden), so what lies outside that ancestor is not seen. */
  clippedByAncestor: boolean;
  /**
   * Its text is partly cut off by an ancestor's overflow (any level up to the root; ellipsis or not): how many px
   * of the text box lie outside that ancestor's padding box, and the ancestor's selector. Null (or absent) when no
   * ancestor cuts visible text, when the text is entirely hidden (a deliberate mask), or when something between
   * them is transformed (a reveal in motion).
   */
  ancestorClip?: { px: number; by: string } | null;
}

const TOLERANCE_PX = 2;
const OVERLAP_MIN_FRACTION = 0.15;

const round = (b: Box): Box => ({ x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) });

function intersection(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

export function analyzeLayout(elements: readonly MeasuredElement[], canvas: { width: number; height: number }, time: number): CheckFinding[] {
  const findings: CheckFinding[] = [];
  const offCanvas = new Set<number>();
  for (const el of elements) {
    const at = { time, box: round(el.box), selector: el.selector };
    if (el.textBox) {
      const x = el.overflowX > TOLERANCE_PX;
      const y = el.overflowY > TOLERANCE_PX;
      const byAncestor = el.ancestorClip && el.ancestorClip.px > TOLERANCE_PX ? el.ancestorClip : null;
      if ((x && el.clipsX) || (y && el.clipsY)) {
        findings.push(checkFinding("text-clipped", el.file, `text of ${el.selector} is cut off: ${Math.round(Math.max(el.clipsX ? el.overflowX : 0, el.clipsY ? el.overflowY : 0))} px do not fit its box at ${time} s`, { ...at, fixHint: "shorten the text, lower its font-size, or make the box larger" }));
      } else if (byAncestor) {
        // Spilling out of its own box into an ancestor that hides overflow: what the viewer sees is cut text.
        findings.push(checkFinding("text-clipped", el.file, `text of ${el.selector} is cut off by ${byAncestor.by} (overflow hidden): ${Math.round(byAncestor.px)} px lie outside it at ${time} s`, { ...at, fixHint: `shorten the text, lower its font-size, let it wrap, or make ${byAncestor.by} larger` }));
      } else if (x || y) {
        findings.push(checkFinding("text-overflow", el.file, `text of ${el.selector} overflows its box by ${Math.round(Math.max(el.overflowX, el.overflowY))} px at ${time} s`, { ...at, fixHint: "shorten the text, lower its font-size, or let the box grow (no fixed width/height)" }));
      }
    }
    const b = el.box;
    const outside = b.x < -TOLERANCE_PX || b.y < -TOLERANCE_PX || b.x + b.width > canvas.width + TOLERANCE_PX || b.y + b.height > canvas.height + TOLERANCE_PX;
    if (outside && !el.clippedByAncestor) {
      offCanvas.add(el.id);
      // Report the outermost element only: its children are off the canvas because it is.
      if (el.ancestors.some((a) => offCanvas.has(a))) continue;
      const fully = b.x + b.width <= 0 || b.y + b.height <= 0 || b.x >= canvas.width || b.y >= canvas.height;
      findings.push(checkFinding("off-canvas", el.file, `${el.selector} is ${fully ? "entirely" : "partly"} outside the ${canvas.width}x${canvas.height} canvas at ${time} s`, { ...at, fixHint: "move or resize it inside the canvas, or hide it while it is off screen" }));
    }
  }
  const texts = elements.filter((e) => e.textBox && !e.clippedByAncestor);
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i]!;
      const b = texts[j]!;
      if (a.ancestors.includes(b.id) || b.ancestors.includes(a.id)) continue;
      const area = intersection(a.textBox!, b.textBox!);
      const smaller = Math.min(a.textBox!.width * a.textBox!.height, b.textBox!.width * b.textBox!.height);
      if (area <= 0 || smaller <= 0 || area / smaller < OVERLAP_MIN_FRACTION) continue;
      findings.push(checkFinding("text-overlap", a.file, `text of ${a.selector} overlaps text of ${b.selector} at ${time} s`, { time, selector: a.selector, box: round(a.textBox!), fixHint: `move one of them, or show them at different times (the other is ${b.selector} in ${b.file})` }));
    }
  }
  return findings;
}

/** One finding per (code, file, selector) across all sample times: the first one, with every time it was seen. */
export function mergeAcrossTimes(findings: readonly CheckFinding[]): CheckFinding[] {
  const byKey = new Map<string, CheckFinding>();
  for (const f of findings) {
    const key = `${f.code}\u0000${f.file}\u0000${f.selector ?? ""}\u0000${f.code === "text-overlap" ? f.fixHint ?? "" : ""}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, { ...f, ...(f.time !== undefined ? { times: [f.time] } : {}) });
    else if (f.time !== undefined) seen.times = [...(seen.times ?? []), f.time];
  }
  return [...byKey.values()];
}
