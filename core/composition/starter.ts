// The index.html written for a new project when the caller gives no html. It must lint with zero errors and zero
// warnings and pass the browser check with no findings (the glows' boxes stay on the canvas while they drift, the
// title's line box holds its glyphs), so it doubles as the reference an agent can copy from.
import { GSAP_CDN_URL } from "./match-gsap-url.ts";
import { escapeHtml } from "./escape-html.ts";

export interface StarterOptions {
  compositionId: string;
  title: string;
  /** Seconds; defaults to 6. */
  duration?: number;
}

// The id lands in an attribute, a CSS selector and a JS string, so it is restricted rather than escaped three ways.
const COMPOSITION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

const round = (value: number): number => Math.round(value * 1000) / 1000;

export function starterComposition({ compositionId, title, duration = 6 }: StarterOptions): string {
  if (!COMPOSITION_ID.test(compositionId)) {
    throw new Error(`starterComposition: compositionId must match ${COMPOSITION_ID}, received ${JSON.stringify(compositionId)}`);
  }
  if (!Number.isFinite(duration) || duration <= 0) {
    throw new Error(`starterComposition: duration must be a positive number of seconds, received ${duration}`);
  }
  // Double quotes inside the selector, so scripts quote it with single quotes.
  const scope = `[data-composition-id="${compositionId}"]`;
  // Timings scale down for short clips so every tween ends inside the composition.
  const intro = round(Math.min(1.2, duration * 0.3));
  const outro = round(Math.min(0.6, duration * 0.15));
  const outroAt = round(duration - outro);
  const text = escapeHtml(title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=1920, height=1080">
<title>${text}</title>
<script src="${GSAP_CDN_URL}"></script>
<style>
  html, body { margin: 0; width: 1920px; height: 1080px; overflow: hidden; background: #0b1020; }
  ${scope} { position: relative; width: 1920px; height: 1080px; overflow: hidden;
    background: radial-gradient(120% 90% at 50% 110%, #1d2a5b 0%, #0b1020 60%);
    font-family: "Helvetica Neue", Helvetica, Arial, system-ui, sans-serif; color: #f5f7ff; }
  ${scope} .glow { position: absolute; border-radius: 50%; filter: blur(80px); opacity: 0.55; }
  ${scope} .glow-a { width: 640px; height: 640px; left: 60px; top: 40px; background: #5b6cff; }
  ${scope} .glow-b { width: 560px; height: 560px; right: 60px; bottom: 40px; background: #ff5fa2; }
  ${scope} .stage { position: absolute; inset: 0; display: flex; flex-direction: column; align-items: center; justify-content: center; }
  ${scope} .title { margin: 0; max-width: 1500px; text-align: center; font-size: 120px; font-weight: 800; line-height: 1.2; letter-spacing: -2px; }
  ${scope} .rule { width: 320px; height: 8px; margin-top: 48px; border-radius: 4px; background: linear-gradient(90deg, #5b6cff, #ff5fa2); transform-origin: 50% 50%; }
</style>
</head>
<body>
<div id="root" data-composition-id="${compositionId}" data-start="0" data-duration="${duration}" data-width="1920" data-height="1080">
  <div class="glow glow-a"></div>
  <div class="glow glow-b"></div>
  <div class="stage">
    <h1 class="title">${text}</h1>
    <div class="rule"></div>
  </div>
</div>
<script>
  // Paused: the renderer seeks this timeline frame by frame instead of letting it play.
  const tl = gsap.timeline({ paused: true });
  tl.fromTo('${scope} .glow-a', { x: 0, y: 0 }, { x: 260, y: 140, duration: ${duration}, ease: "sine.inOut" }, 0);
  tl.fromTo('${scope} .glow-b', { x: 0, y: 0 }, { x: -220, y: -120, duration: ${duration}, ease: "sine.inOut" }, 0);
  tl.from('${scope} .title', { y: 60, opacity: 0, duration: ${intro}, ease: "power3.out" }, 0);
  tl.from('${scope} .rule', { scaleX: 0, opacity: 0, duration: ${intro}, ease: "power2.out" }, ${round(intro * 0.4)});
  tl.to('${scope} .stage', { opacity: 0, duration: ${outro}, ease: "power1.in" }, ${outroAt});
  // Pin the timeline's length to the composition's duration.
  tl.set({}, {}, ${duration});
  window.__timelines = window.__timelines || {};
  window.__timelines["${compositionId}"] = tl;
</script>
</body>
</html>
`;
}
