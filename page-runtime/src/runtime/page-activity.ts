// What can change a page's pixels besides the timelines the runtime seeks: the DOM changing (whoever did it),
// CSS animations and transitions, canvases, frames, SVG animation elements, images and fonts still loading, a
// newly loaded resource, an animated image, a blinking caret. Frame reuse (still-frame.ts) asks it once a frame;
// each answer is "why this frame may differ", or null when nothing here moved. Every rule errs towards capture.
import { isAnimatedImage } from "./animated-image.ts";
import { logIgnored } from "./log-ignored.ts";

export interface PageActivity {
  /** Why the picture may have changed since the previous call, or null. Call once a frame, captured or not. */
  take(): string | null;
}

// Elements whose picture moves on its own clock, or that the runtime cannot see into: never a still frame.
const ALWAYS_MOVING = "canvas, iframe, frame, object, embed, video, marquee, animate, animateMotion, animateTransform, set, discard";
const NOT_IMAGES = /\.(woff2?|ttf|otf|css|m?js|json|html?|wav|mp3|m4a|aac|ogg|opus|mp4|webm|mov)([?#]|$)/i;
const CSS_INLINE_IMAGE = /url\(\s*["']?\s*(data|blob):/i;

/** Starts watching (a MutationObserver and the resource timeline); call as early as the runtime starts. */
export function watchPageActivity(): PageActivity {
  let mutated = false;
  const observer = new MutationObserver(() => {
    mutated = true;
  });
  const watch: MutationObserverInit = { attributes: true, childList: true, characterData: true, subtree: true };
  observer.observe(document, watch);
  // A shadow root's insides are invisible to the document's observer and selectors: each one is watched too.
  const shadows: ShadowRoot[] = [];
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit): ShadowRoot {
    const root = attachShadow.call(this, init);
    shadows.push(root);
    observer.observe(root, watch);
    mutated = true;
    return root;
  };
  // The resource timeline keeps 250 entries by default; every one is needed to know what was loaded.
  performance.setResourceTimingBufferSize(1_000_000);

  let seenResources = 0;
  let sheetsSeen = -1;
  let cssInlineImage = false;
  /** URL → animated (true), still (false), or being read (undefined while pending). */
  const images = new Map<string, boolean | undefined>();
  let pending = 0;

  const classify = (url: string) => {
    if (images.has(url)) return;
    images.set(url, undefined);
    pending++;
    fetch(url)
      .then(async (response) => (response.ok ? isAnimatedImage(new Uint8Array(await response.arrayBuffer())) : false))
      // A file that cannot be read back is unknown: treated as moving.
      .catch((error: unknown) => {
        logIgnored("an image could not be read back; treated as moving", error);
        return true;
      })
      .then((animated) => {
        images.set(url, animated);
        pending--;
      });
  };

  // Every resource the page loaded since the last look: a new one may paint (a late image, a background), and
  // an image one may animate on its own. Video frames the runtime shows are JPEG stills: never read back.
  const newResources = (): boolean => {
    const entries = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    if (entries.length === seenResources) return false;
    for (let i = seenResources; i < entries.length; i++) {
      const entry = entries[i]!;
      if (/^(script|fetch|xmlhttprequest|beacon|navigation)$/.test(entry.initiatorType)) continue;
      const url = entry.name;
      if (NOT_IMAGES.test(url) || url.startsWith(location.origin + "/__studio/video/")) continue;
      const status = (entry as { responseStatus?: number }).responseStatus;
      if (status !== undefined && status !== 0 && (status < 200 || status > 299)) continue;
      // Only the project's own origin answers a render page; anything else was blocked and draws nothing.
      if (!url.startsWith(location.origin + "/")) continue;
      classify(url);
    }
    seenResources = entries.length;
    return true;
  };

  const inlineImages = () => {
    for (let i = 0; i < document.images.length; i++) {
      const src = document.images[i]!.currentSrc || document.images[i]!.src;
      if (src.startsWith("data:") || src.startsWith("blob:")) classify(src);
    }
  };

  // Stylesheets are read again when their number changes; a data: or blob: image inside one cannot be read back
  // per element, so it counts as moving. A sheet the page cannot read was blocked and holds nothing.
  const scanSheets = () => {
    if (document.styleSheets.length === sheetsSeen) return;
    sheetsSeen = document.styleSheets.length;
    cssInlineImage = false;
    for (let s = 0; s < document.styleSheets.length; s++) {
      let rules: CSSRuleList;
      try {
        rules = document.styleSheets[s]!.cssRules;
      } catch (error) {
        logIgnored("a stylesheet the page may not read (another origin) is not scanned for inline images", error);
        continue;
      }
      for (let r = 0; r < rules.length && !cssInlineImage; r++) cssInlineImage = CSS_INLINE_IMAGE.test(rules[r]!.cssText);
    }
  };

  const moving = (): string | null => {
    if (document.querySelector(ALWAYS_MOVING) || shadows.some((root) => root.querySelector(ALWAYS_MOVING))) {
      return "the page has a canvas, frame, video or SVG animation element";
    }
    const animations = document.getAnimations();
    for (let a = 0; a < animations.length; a++) {
      const state = animations[a]!.playState;
      if (state === "running" || state === "pending" as AnimationPlayState) return "a CSS animation or transition is running";
    }
    if (document.fonts && document.fonts.status !== "loaded") return "fonts are loading";
    for (let i = 0; i < document.images.length; i++) if (!document.images[i]!.complete) return "an image is loading";
    const focused = document.activeElement as HTMLElement | null;
    if (focused && (focused.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(focused.nodeName))) return "a focused field shows a caret";
    scanSheets();
    if (cssInlineImage) return "a stylesheet holds an inline (data: or blob:) image";
    return null;
  };

  return {
    take() {
      const fresh = newResources();
      inlineImages();
      const changed = mutated || observer.takeRecords().length > 0;
      mutated = false;
      if (changed) return "the document changed";
      if (fresh) return "a resource finished loading";
      if (pending > 0) return "an image is being checked for animation";
      for (const animated of images.values()) if (animated) return "the page shows an animated image";
      return moving();
    },
  };
}
