// The runtime's own styles and, in render mode, the <video> swap: done as the parser inserts them, before
// composition scripts look them up, each <video> becomes an <img> showing the frames ffmpeg extracted.

export interface SwappedVideo {
  img: HTMLImageElement;
  original: HTMLVideoElement;
}

// A clip outside its window is hidden, and so is everything inside it, even a child that says visibility:visible;
// whether it also leaves the layout is setClipShown's concern.
const HIDDEN_CLIP_RULE = "[data-studio-hidden],[data-studio-hidden] *{visibility:hidden!important}";
// `loop` stays: the runtime reads it off the <img> to start the file over each cycle.
const SKIP_ATTRS: Record<string, 1> = { src: 1, autoplay: 1, controls: 1, preload: 1, poster: 1, playsinline: 1 };

// HyperFrames renders text with geometric precision (glyph positions not snapped to whole pixels); first in
// <head>, so a composition's own text-rendering still wins.
export function addTextRendering(): void {
  const rule = document.createElement("style");
  rule.setAttribute("data-studio-text-rendering", "");
  rule.textContent = "html,body,*{text-rendering:geometricPrecision}";
  const parent = document.head || document.documentElement;
  parent.insertBefore(rule, parent.firstChild);
}

function swapVideo(video: HTMLVideoElement & { __studioSwapped?: boolean }, swapped: SwappedVideo[]): void {
  if (video.__studioSwapped) return;
  video.__studioSwapped = true;
  const img = document.createElement("img");
  for (let i = 0; i < video.attributes.length; i++) {
    const attr = video.attributes[i]!;
    if (!SKIP_ATTRS[attr.name]) img.setAttribute(attr.name, attr.value);
  }
  img.setAttribute("data-studio-video", "");
  img.alt = "";
  swapped.push({ img, original: video });
  if (video.parentNode) video.parentNode.replaceChild(img, video);
}

function visit(node: Node, swapped: SwappedVideo[]): void {
  if (node.nodeType !== 1) return;
  if (node.nodeName === "VIDEO") swapVideo(node as HTMLVideoElement, swapped);
  else if ((node as Element).querySelectorAll) {
    const found = (node as Element).querySelectorAll("video");
    for (let i = 0; i < found.length; i++) swapVideo(found[i]!, swapped);
  }
}

/** Adds the clip-hiding rule; in render mode also swaps every <video> the parser inserts (into `swapped`). */
export function installPageStyles(renderMode: boolean, swapped: SwappedVideo[]): void {
  const style = document.createElement("style");
  if (renderMode) {
    style.textContent = ":where(img[data-studio-video]){object-fit:contain}" + HIDDEN_CLIP_RULE;
    document.documentElement.appendChild(style);
    new MutationObserver((records) => {
      for (let r = 0; r < records.length; r++) {
        const added = records[r]!.addedNodes;
        for (let a = 0; a < added.length; a++) visit(added[a]!, swapped);
      }
    }).observe(document.documentElement, { childList: true, subtree: true });
  } else {
    style.textContent = HIDDEN_CLIP_RULE;
    document.documentElement.appendChild(style);
  }
}
