// Runs inside the composition page (page.evaluate): measures every visible element for the layout inspection.
// Must stay self-contained: puppeteer sends the function's source to the page.
import type { MeasuredElement } from "../../../core/browser/analyze-layout.ts";

/** Elements that have no box of their own to inspect; passed in, since the page cannot see this module. */
export const SKIP_TAGS = ["SCRIPT", "STYLE", "TEMPLATE", "AUDIO", "LINK", "META", "BR", "SOURCE", "TRACK"];

export function collectLayout(skip: string[]): MeasuredElement[] {
  // Everything painted in the frame, not only the root's subtree: a caption or logo placed beside the root (or
  // fixed to the viewport) is in the video as much as anything inside it.
  const root = document.querySelector("[data-composition-id]");
  const all = Array.from(document.body.querySelectorAll("*"));
  const ids = new Map<Element, number>();
  all.forEach((el, i) => ids.set(el, i));
  // The page's own boxes are the canvas: their overflow is the frame's edge (off-canvas), not a container's.
  const canvasBoxes = new Set<Element | null>([document.documentElement, document.body, root]);
  const clips = (v: string) => v !== "visible";
  // GSAP leaves an identity matrix behind after a tween: only a real translation, scale or rotation counts.
  const still = (transform: string) => transform === "none" || new DOMMatrixReadOnly(transform).isIdentity;
  // Whether a box is the containing block of fixed descendants (and so of absolute ones, and its overflow cuts them).
  const holdsFixed = (cs: CSSStyleDeclaration) =>
    cs.transform !== "none" || cs.filter !== "none" || cs.perspective !== "none" || cs.backdropFilter !== "none" ||
    /paint|layout|strict|content/.test(cs.contain) || /transform|filter|perspective/.test(cs.willChange);
  // The ancestors whose overflow can cut el, below the canvas boxes. Overflow clips only what a box contains: an
  // absolutely positioned element escapes the static ancestors up to its containing block, a fixed one every
  // ancestor up to a transformed (or filtered, contained) one.
  const containers = (el: Element): Element[] => {
    const out: Element[] = [];
    let position = getComputedStyle(el).position;
    for (let p = el.parentElement; p && !canvasBoxes.has(p); p = p.parentElement) {
      const pcs = getComputedStyle(p);
      const contains = position === "fixed" ? holdsFixed(pcs) : position === "absolute" ? pcs.position !== "static" || holdsFixed(pcs) : true;
      if (!contains) continue;
      out.push(p);
      position = pcs.position;
    }
    return out;
  };
  const boxOf = (r: DOMRect) => ({ x: r.x, y: r.y, width: r.width, height: r.height });
  const describe = (el: Element): string => {
    if (el.id) return `#${el.id}`;
    const tag = el.nodeName.toLowerCase();
    const classes = Array.from(el.classList).slice(0, 2).map((c) => `.${c}`).join("");
    const own = tag + classes;
    if (document.querySelectorAll(own).length === 1 || !el.parentElement || el.parentElement === root) return own;
    const siblings = Array.from(el.parentElement.children).filter((s) => s.nodeName === el.nodeName);
    const nth = siblings.length > 1 ? `:nth-of-type(${siblings.indexOf(el) + 1})` : "";
    return `${describe(el.parentElement)} > ${own}${nth}`;
  };
  const out: MeasuredElement[] = [];
  for (const el of all) {
    if (skip.includes(el.nodeName)) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) continue;
    // Not painted: its own visibility (inherited, so a timed clip the runtime hides outside its window hides what
    // it holds, while a child that says visible is painted), or display:none / near-zero opacity on the way up.
    const cs = getComputedStyle(el);
    if (cs.visibility !== "visible") continue;
    let painted = true;
    for (let n: Element | null = el; n; n = n.parentElement) {
      const ncs = n === el ? cs : getComputedStyle(n);
      if (ncs.display === "none" || Number(ncs.opacity) < 0.05) {
        painted = false;
        break;
      }
    }
    if (!painted) continue;
    const ancestors: number[] = [];
    let file = "index.html";
    for (let p = el.parentElement; p; p = p.parentElement) {
      const id = ids.get(p);
      if (id !== undefined) ancestors.push(id);
      const src = p.getAttribute("data-composition-src");
      if (src && file === "index.html") file = src;
    }
    const cutters = containers(el).filter((c) => {
      const ccs = getComputedStyle(c);
      return (clips(ccs.overflowX) || clips(ccs.overflowY)) && ccs.display !== "inline";
    });
    const clippedByAncestor = cutters.length > 0;
    let textBox: MeasuredElement["textBox"] = null;
    const texts = Array.from(el.childNodes).filter((n) => n.nodeType === 3 && (n.textContent ?? "").trim() !== "");
    if (texts.length > 0) {
      let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
      for (const node of texts) {
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of Array.from(range.getClientRects())) {
          if (r.width <= 0 || r.height <= 0) continue;
          x1 = Math.min(x1, r.left); y1 = Math.min(y1, r.top); x2 = Math.max(x2, r.right); y2 = Math.max(y2, r.bottom);
        }
      }
      if (x2 > x1 && y2 > y1) textBox = { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
    }
    // Text cut off by an ancestor's overflow, at any level: the part of the text box outside the ancestor's
    // padding box. Entirely hidden text is a deliberate mask, and a transformed element on the way is a reveal in
    // motion (text sliding into an overflow-hidden line): neither is reported.
    let ancestorClip: MeasuredElement["ancestorClip"] = null;
    if (textBox && still(cs.transform)) {
      for (let q = el.parentElement; q && !canvasBoxes.has(q); q = q.parentElement) {
        const qcs = getComputedStyle(q);
        if (!still(qcs.transform)) break;
        if (cutters.includes(q)) {
          const cx = clips(qcs.overflowX);
          const cy = clips(qcs.overflowY);
          const r = q.getBoundingClientRect();
          const left = r.left + q.clientLeft, top = r.top + q.clientTop;
          const right = left + q.clientWidth, bottom = top + q.clientHeight;
          const t = textBox;
          const seen = t.x < right && t.x + t.width > left && t.y < bottom && t.y + t.height > top;
          const px = Math.max(
            cx ? Math.max(0, left - t.x) + Math.max(0, t.x + t.width - right) : 0,
            cy ? Math.max(0, top - t.y) + Math.max(0, t.y + t.height - bottom) : 0,
          );
          if (seen && px > (ancestorClip?.px ?? 0)) ancestorClip = { px, by: describe(q) };
          if (!seen) break;
        }
      }
    }
    const block = cs.display !== "inline";
    out.push({
      id: ids.get(el) ?? -1,
      ancestors,
      selector: describe(el),
      file,
      box: boxOf(rect),
      textBox,
      overflowX: block ? Math.max(0, el.scrollWidth - el.clientWidth) : 0,
      overflowY: block ? Math.max(0, el.scrollHeight - el.clientHeight) : 0,
      clipsX: clips(cs.overflowX) || cs.textOverflow === "ellipsis",
      clipsY: clips(cs.overflowY),
      clippedByAncestor,
      ancestorClip,
    });
  }
  return out;
}
