// How clips are laid out and how one shows and hides, as HyperFrames 0.8.170 does it (when: clip-clock.ts).
import type { TimeWindow } from "./clip-clock.ts";
import { num } from "./page-globals.ts";

export interface Clip {
  el: HTMLElement;
  window: TimeWindow;
  /** Whether hiding also takes it out of the layout: decided the first time it hides. */
  collapses: boolean | null;
  savedDisplay: { value: string; priority: string } | null;
}

export function mediaSrc(el: Element): string | null {
  let src = el.getAttribute("src") || el.getAttribute("data-studio-video-src");
  if (!src) {
    const source = el.querySelector && el.querySelector("source[src]");
    if (source) src = source.getAttribute("src");
  }
  return src ? new URL(src, document.baseURI).href : null;
}

// HyperFrames 0.8.170 lays out the timed children of the root as layers (measured with its CLI, parity corpus
// layered-clips): one not already absolute or fixed becomes position:absolute, so each sits at the root's top-left
// (its margins still apply) and they paint in DOM order; data-track-index does not reorder them. A layer with
// no size of its own gets its data-width/data-height, or else fills the root. An inline display:none is lifted
// while measuring, as HyperFrames does.
export function placeRootClips(root: Element): void {
  const px = (value: string | null) => {
    const n = num(value, NaN);
    return Number.isFinite(n) ? n + "px" : null;
  };
  Array.prototype.forEach.call(root.children, (el: HTMLElement) => {
    if (!el.hasAttribute("data-start") || /^(SCRIPT|STYLE|LINK|META)$/.test(el.nodeName)) return;
    const hidden = el.style.getPropertyValue("display") === "none";
    const priority = el.style.getPropertyPriority("display");
    if (hidden) el.style.removeProperty("display");
    const computed = getComputedStyle(el);
    if (computed.position !== "absolute" && computed.position !== "fixed") el.style.position = "absolute";
    if (el.nodeName !== "AUDIO") {
      const w = px(el.getAttribute("data-width"));
      const h = px(el.getAttribute("data-height"));
      if (!el.style.width) {
        if (w) {
          if (computed.width === "0px" || computed.width === "auto") el.style.width = w;
        } else if (computed.width === "0px") el.style.width = "100%";
      }
      if (!el.style.height) {
        if (h) {
          if (computed.height === "0px" || computed.height === "auto") el.style.height = h;
        } else if (computed.height === "0px") el.style.height = "100%";
      }
    }
    if (hidden) el.style.setProperty("display", "none", priority);
  });
}

// Off its window, a clip in normal flow (position static, relative or sticky) holding no timed clip of its own
// also leaves the layout (inline display:none, its own display restored when it shows again), as HyperFrames
// 0.8.170 does (measured, parity corpus hidden-clips: a hidden clip in a flex row lets the others move). Any other
// clip keeps its box (visibility only). Both answers are taken the first time the clip hides, as HyperFrames caches them.
export function setClipShown(clip: Clip, on: boolean): void {
  const el = clip.el;
  if (on) {
    el.removeAttribute("data-studio-hidden");
    if (clip.savedDisplay) {
      if (clip.savedDisplay.value) el.style.setProperty("display", clip.savedDisplay.value, clip.savedDisplay.priority);
      else el.style.removeProperty("display");
      clip.savedDisplay = null;
    }
    return;
  }
  // Set once: writing the same attribute every frame would read as a change to frame reuse's DOM watch.
  if (!el.hasAttribute("data-studio-hidden")) el.setAttribute("data-studio-hidden", "");
  if (clip.collapses === null) {
    clip.collapses = /^(static|relative|sticky)$/.test(getComputedStyle(el).position) && !el.querySelector("[data-start]");
  }
  if (clip.collapses && !clip.savedDisplay) {
    clip.savedDisplay = { value: el.style.getPropertyValue("display"), priority: el.style.getPropertyPriority("display") };
    el.style.display = "none";
  }
}
