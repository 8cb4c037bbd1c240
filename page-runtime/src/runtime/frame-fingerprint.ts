// Incremental re-render, the page's half: a fingerprint of everything that paints at the time the page was last
// sought, cheap enough for every frame (no screenshot), and a key of what the page loaded. The node compares each
// frame's fingerprint with the previous render's of the same frame (render-node/src/carry/): equal fingerprints
// under an equal key mean the same picture. Whatever the walk cannot describe refuses: the answer then starts
// with "!" and never matches anything.
//
// What the fingerprint covers, in tree order (shadow roots included, open or closed):
// - every element not display:none: its tag; if it is visible, its attributes (inline style included, where GSAP
//   writes), its place (getBoundingClientRect: what layout made of it, fonts and hidden siblings included), its
//   scroll offsets and sizes where it scrolls, a field's value; if it is hidden (a clip outside its window), only its
//   tag and attributes (a visible child may inherit from its inline style): its text and size paint nothing, and
//   what its size does to others is in their places;
// - every text node of a visible element, by its text;
// - the CSS rules as the page holds them now (a script may insert or edit rules at any time);
// - the document's scroll size and the fonts' state.
// What refuses: a canvas, frame, object, embed, <video> (render mode swaps them for images) or SVG animation element
// not display:none, and any running or held Web Animation (CSS animations and transitions): their pictures are not in the
// DOM. Image and video-frame files are named by their URLs; the node puts every file's content in its key.
import { logIgnored } from "./log-ignored.ts";

const NOT_DESCRIBED = new Set(["canvas", "iframe", "frame", "object", "embed", "video", "marquee", "animate", "animateMotion", "animateTransform", "set", "discard"]);

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
      for (let r = 0; r < rules.length; r++) out.push(rules[r]!.cssText);
    }
  };

  const walkChildren = (parent: Node, visible: boolean, out: string[]) => {
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 1) walkElement(child as Element, out);
      else if (child.nodeType === 3 && visible) out.push("\u0002", child.nodeValue || "");
    }
  };

  // Set by the walk when it meets an element whose picture is not in the DOM.
  const walk: { refused: string | null } = { refused: null };
  const walkElement = (el: Element, out: string[]) => {
    if (NOT_DESCRIBED.has(el.localName)) walk.refused = "!the page shows a <" + el.localName + ">, whose picture is not in the DOM";
    const style = getComputedStyle(el);
    if (style.display === "none") {
      out.push("\u0003-", el.localName);
      return;
    }
    const visible = style.visibility === "visible";
    out.push(visible ? "\u0003" : "\u0003h", el.localName);
    const attrs = el.attributes;
    for (let i = 0; i < attrs.length; i++) out.push(attrs[i]!.name, attrs[i]!.value);
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
    const shadow = el.shadowRoot || closedRoots.get(el);
    if (shadow) {
      out.push("\u0004shadow");
      rulesText(shadow.styleSheets, out);
      rulesText(shadow.adoptedStyleSheets, out);
      walkChildren(shadow, visible, out);
    }
    walkChildren(el, visible, out);
    out.push("\u0005");
  };

  return {
    frame() {
      if (document.getAnimations().length > 0) return "!a CSS animation or transition is running";
      walk.refused = null;
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
      for (let i = 0; i < scripts.length; i++) out.push("\u0001script", scripts[i]!.src, scripts[i]!.type, scripts[i]!.textContent || "");
      if (document.fonts) document.fonts.forEach((face) => out.push("\u0001font", face.family, face.style, face.weight, face.stretch, face.status));
      return hash64(out.join("\u0000"));
    },
  };
}
