// Incremental re-render, the page's half: a fingerprint of everything that paints at the time the page was last
// sought, cheap enough for every frame (no screenshot), and a key of what the page loaded. The node compares each
// frame's fingerprint with the previous render's of the same frame (render-node/src/carry/): equal fingerprints
// under an equal key mean the same picture. Whatever the walk cannot describe refuses: the answer then starts
// with "!" and never matches anything.
//
// What the fingerprint covers, in tree order (shadow roots included, open or closed):
// - every element: its tag; if it is visible, its attributes (inline style included, where GSAP writes), its place
//   (getBoundingClientRect: what layout made of it, fonts and hidden siblings included), its scroll offsets and
//   sizes where it scrolls, a field's value; if it is hidden (a clip outside its window), its attributes only when
//   something inside it paints (which may inherit from its inline style or match a selector through it): its text,
//   size and timing paint nothing, and what its size does to others is in their places. When the CSS has a
//   selector by which an element styles one outside it (a sibling combinator, :has(), :nth-*(... of S)), hidden and
//   undisplayed elements are described in full;
// - every text node of a visible element, by its text;
// - the CSS rules as the page holds them now (a script may insert or edit rules at any time);
// - the document's scroll size and the fonts' state.
// What refuses: a canvas, frame, object, embed, <video> (render mode swaps them for images) or SVG animation element
// not display:none, and any running or held Web Animation (CSS animations and transitions): their pictures are not in the
// DOM. Image and video-frame files are named by their URLs; the node puts every file's content in its key.
import { logIgnored } from "./log-ignored.ts";

const NOT_DESCRIBED = new Set(["canvas", "iframe", "frame", "object", "embed", "video", "marquee", "animate", "animateMotion", "animateTransform", "set", "discard"]);

// Selectors by which an element can be styled by another that is not its ancestor (over-matching is only caution).
const RELATIONAL = /[~+]|:has\(|:nth-/;

export interface FrameFingerprints {
  /** The fingerprint of what paints now (16 hex digits), or "!" and why it cannot be told. */
  frame(): string;
  /** A hash of what the page loaded that the frames do not show: every script's text and source, GSAP's version. */
  loadKey(gsapVersion: string | null): string;
}

/** Two 32-bit FNV-1a lanes with different offsets: 64 bits, enough that two different pages never meet by chance. */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** Starts keeping closed shadow roots (the walk cannot reach them otherwise); call before any composition script. */
export function watchFrameFingerprints(): FrameFingerprints {
  const closedRoots = new WeakMap<Element, ShadowRoot>();
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit): ShadowRoot {
    const root = attachShadow.call(this, init);
    closedRoots.set(this, root);
    return root;
  };

  const rulesText = (sheets: ArrayLike<CSSStyleSheet>, out: string[]) => {
    for (let s = 0; s < sheets.length; s++) {
      const sheet = sheets[s]!;
      let rules: CSSRuleList;
      try {
        rules = sheet.cssRules;
      } catch (error) {
        // Another origin's sheet: a render page gets none (the node serves one origin), so it holds nothing.
        logIgnored("a stylesheet the page may not read is left out of the frame's fingerprint", error);
        out.push("\u0001sheet?", sheet.href || "");
        continue;
      }
      out.push("\u0001sheet", sheet.disabled ? "off" : "on", sheet.media ? sheet.media.mediaText : "");
      for (let r = 0; r < rules.length; r++) {
        out.push(rules[r]!.cssText);
        if (!walk.relational && relationalRule(rules[r]!)) walk.relational = true;
      }
    }
  };

  const walkChildren = (parent: Node, visible: boolean, out: string[]): boolean => {
    let paints = false;
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 1) paints = walkElement(child as Element, out) || paints;
      else if (child.nodeType === 3 && visible) out.push("\u0002", child.nodeValue || "");
    }
    return paints;
  };

  // An attribute naming the page's own origin (the runtime's script, a swapped video) without it: the node's
  // project server listens on another port each render.
  const attributesOf = (el: Element): string => {
    const parts: string[] = [];
    const attrs = el.attributes;
    for (let i = 0; i < attrs.length; i++) parts.push(attrs[i]!.name, attrs[i]!.value.split(location.origin).join(""));
    return parts.join("\u0001");
  };

  /** Whether a rule's selector (or a selector inside it: @media, @supports) can style by another element's state. */
  const relationalRule = (rule: CSSRule): boolean => {
    const selector = (rule as CSSStyleRule).selectorText;
    if (typeof selector === "string" && RELATIONAL.test(selector)) return true;
    const inner = (rule as CSSGroupingRule).cssRules;
    if (inner) for (let i = 0; i < inner.length; i++) if (relationalRule(inner[i]!)) return true;
    return false;
  };

  // Set by the walk when it meets an element whose picture is not in the DOM. `relational`: the page's CSS has a
  // selector by which one element's attributes or text can style another that is not inside it (a sibling
  // combinator, :has()); then hidden and undisplayed elements are described in full too.
  const walk: { refused: string | null; relational: boolean } = { refused: null, relational: false };

  /** Describes `el` and what is inside it into `out`; answers whether anything in it paints. */
  const walkElement = (el: Element, out: string[]): boolean => {
    if (NOT_DESCRIBED.has(el.localName)) walk.refused = "!the page shows a <" + el.localName + ">, whose picture is not in the DOM";
    const style = getComputedStyle(el);
    if (style.display === "none") {
      out.push("\u0003-", el.localName);
      if (walk.relational) out.push(attributesOf(el), el.textContent || "");
      return false;
    }
    const visible = style.visibility === "visible";
    out.push(visible ? "\u0003" : "\u0003h", el.localName);
    // A hidden element's attributes matter only when something inside it paints (it may inherit from its inline
    // style, or match a selector through it): filled in once its children are walked.
    const attributesAt = out.length;
    out.push(visible || walk.relational ? attributesOf(el) : "");
    if (!visible && walk.relational) out.push(el.textContent || "");
    if (visible) {
      const box = el.getBoundingClientRect();
      out.push("@", String(box.x), String(box.y), String(box.width), String(box.height));
      if (/^(auto|scroll)$/.test(style.overflowX) || /^(auto|scroll)$/.test(style.overflowY)) {
        out.push("scroll", String(el.scrollLeft), String(el.scrollTop), String(el.scrollWidth), String(el.scrollHeight));
      }
      const field = el as HTMLInputElement;
      if (el.localName === "input" || el.localName === "textarea" || el.localName === "select") out.push("value", String(field.value), String(field.checked));
      if (el.localName === "img") out.push("img", String((el as HTMLImageElement).complete), String((el as HTMLImageElement).naturalWidth));
    }
    let paints = visible;
    const shadow = el.shadowRoot || closedRoots.get(el);
    if (shadow) {
      out.push("\u0004shadow");
      rulesText(shadow.styleSheets, out);
      rulesText(shadow.adoptedStyleSheets, out);
      paints = walkChildren(shadow, visible, out) || paints;
    }
    paints = walkChildren(el, visible, out) || paints;
    if (paints && !visible) out[attributesAt] = attributesOf(el);
    out.push("\u0005");
    return paints;
  };

  return {
    frame() {
      if (document.getAnimations().length > 0) return "!a CSS animation or transition is running";
      walk.refused = null;
      walk.relational = false;
      const out: string[] = [];
      rulesText(document.styleSheets, out);
      rulesText(document.adoptedStyleSheets, out);
      const root = document.documentElement;
      out.push("\u0006doc", String(root.scrollWidth), String(root.scrollHeight), String(window.scrollX), String(window.scrollY));
      out.push("\u0006fonts", document.fonts ? document.fonts.status + ":" + document.fonts.size : "none");
      walkElement(root, out);
      return walk.refused ?? hash64(out.join("\u0000"));
    },
    loadKey(gsapVersion) {
      const out: string[] = ["gsap", gsapVersion || "none"];
      const scripts = document.scripts;
      // A script's URL without the origin: the node's project server listens on another port each render.
      const local = (url: string) => (url.startsWith(location.origin + "/") ? url.slice(location.origin.length) : url);
      for (let i = 0; i < scripts.length; i++) out.push("\u0001script", local(scripts[i]!.src), scripts[i]!.type, scripts[i]!.textContent || "");
      if (document.fonts) document.fonts.forEach((face) => out.push("\u0001font", face.family, face.style, face.weight, face.stretch, face.status));
      return hash64(out.join("\u0000"));
    },
  };
}
