// The renders bench/cost-model.ts fits the cost model to: cards moving over a gradient (and plain flat boxes, the
// lightest page) at several sizes, lengths,
// rates, formats and qualities, some with <video> clips, <audio>, blurred glows, a shader transition or a transparent root, so every term of
// core/render/cost-model.ts is measured more than once. Written into fresh temp folders; the assets (a test-pattern
// clip, a tone) are made with ffmpeg so the repository holds only text.
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GSAP_CDN_URL } from "../../core/composition/match-gsap-url.ts";
import type { Format, Quality } from "../../core/render/render-options.ts";
import { runProcess } from "./run-process.ts";

export interface CostCase {
  name: string;
  quality: Quality;
  format: Format;
  /** The fps option; null: the root's (30). */
  fps: number | null;
  make(ffmpeg: string): Promise<string>;
}

interface Cards {
  width: number;
  height: number;
  seconds: number;
  videos?: number;
  audios?: number;
  /** The root paints no background (html and body keep a backdrop, as templates do): a webm, mov or png-sequence keeps its alpha plane. */
  transparent?: boolean;
  /** Two large glows blurred by a CSS filter behind the cards, as the starter composition has. */
  blur?: boolean;
}

/** Cards and a title in motion on every frame, at `width` x `height`, with optional clips and tones. */
function cardsHtml({ width, height, seconds, videos = 0, audios = 0, transparent = false, blur = false }: Cards): string {
  const unit = width / 1920;
  const px = (n: number) => `${Math.round(n * unit)}px`;
  const cards = ["#f43f5e", "#22c55e", "#3b82f6", "#eab308"]
    .map((color, k) => `<div class="card" style="left:${px(160 + k * 380)};background:${color}"></div>`)
    .join("\n  ");
  const clips = Array.from({ length: videos }, (_, k) =>
    `<video src="assets/clip.mp4" muted data-start="0" data-duration="${seconds}" data-track-index="${k + 1}" style="position:absolute;left:${px(100 + k * 700)};top:${px(700)};width:${px(640)};height:${px(360)}"></video>`,
  ).join("\n  ");
  const glows = blur
    ? `<div class="glow" style="left:${px(60)};top:${px(40)};background:#5b6cff"></div><div class="glow" style="left:${px(1200)};top:${px(400)};background:#ff5fa2"></div>`
    : "";
  const tones = Array.from({ length: audios }, (_, k) => `<audio src="assets/tone.wav" data-start="${k * 0.5}" data-duration="1" data-track-index="${10 + k}"></audio>`).join("\n  ");
  return `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP_CDN_URL}"></script>
<style>
html, body { margin: 0; width: ${width}px; height: ${height}px; overflow: hidden;${transparent ? " background: #0f172a;" : ""} }
#root { position: relative; width: ${width}px; height: ${height}px;${transparent ? "" : " background: linear-gradient(135deg, #0f172a, #312e81);"} font-family: sans-serif; }
.title { position: absolute; left: ${px(160)}; top: ${px(140)}; font-size: ${px(110)}; font-weight: 800; color: #fff; }
.glow { position: absolute; width: ${px(600)}; height: ${px(600)}; border-radius: 50%; filter: blur(${px(80)}); opacity: 0.55; }
.card { position: absolute; top: ${px(420)}; width: ${px(260)}; height: ${px(260)}; border-radius: ${px(32)}; box-shadow: 0 ${px(30)} ${px(60)} rgba(0,0,0,.4); }
</style></head><body>
<div id="root" data-composition-id="cost" data-start="0" data-duration="${seconds}" data-width="${width}" data-height="${height}">
  ${glows}
  <div class="title">Cost ${width}x${height}</div>
  ${cards}
  ${clips}
  ${tones}
</div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to(".card", { x: ${Math.round(300 * unit)}, rotation: 180, duration: ${seconds}, ease: "sine.inOut" }, 0);
  tl.to(".title", { y: ${Math.round(40 * unit)}, duration: ${seconds} }, 0);
  tl.to(".glow", { x: ${Math.round(120 * unit)}, duration: ${seconds}, ease: "sine.inOut" }, 0);
  window.__timelines = window.__timelines || {};
  window.__timelines["cost"] = tl;
</script>
</body></html>
`;
}

async function cardsProject(ffmpeg: string, cards: Cards): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-cost-"));
  await mkdir(join(dir, "assets"));
  if (cards.videos) {
    await runProcess(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=size=640x360:rate=30:duration=${cards.seconds}`, "-pix_fmt", "yuv420p", "-c:v", "libx264", "-g", "30", join(dir, "assets", "clip.mp4")], process.env, 60);
  }
  if (cards.audios) {
    await runProcess(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2:sample_rate=48000", join(dir, "assets", "tone.wav")], process.env, 30);
  }
  await writeFile(join(dir, "index.html"), cardsHtml(cards));
  return dir;
}

/** Three flat boxes moving at `width` x `height`: no text, shadow or gradient, the lightest page a render paints (most of
 * the parity corpus is this kind of page). */
function plainHtml(width: number, height: number, seconds: number): string {
  const side = Math.round(height / 4);
  return `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP_CDN_URL}"></script>
<style>html, body { margin: 0; width: ${width}px; height: ${height}px; overflow: hidden; background: #111827; }
#root { position: relative; width: ${width}px; height: ${height}px; } .box { position: absolute; width: ${side}px; height: ${side}px; }</style>
</head><body>
<div id="root" data-composition-id="plain" data-start="0" data-duration="${seconds}" data-width="${width}" data-height="${height}">
  <div class="box" style="left:10%;top:20%;background:#ef4444"></div>
  <div class="box" style="left:40%;top:50%;background:#10b981"></div>
  <div class="box" style="left:70%;top:30%;background:#6366f1"></div>
</div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to(".box", { x: ${Math.round(width / 5)}, rotation: 90, duration: ${seconds}, ease: "none" }, 0);
  window.__timelines = window.__timelines || {};
  window.__timelines["plain"] = tl;
</script>
</body></html>
`;
}

async function plainProject(width: number, height: number, seconds: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-cost-"));
  await writeFile(join(dir, "index.html"), plainHtml(width, height, seconds));
  return dir;
}

const plain = (name: string, width: number, height: number, seconds: number, format: Format): CostCase => ({
  name, quality: "standard", format, fps: null, make: () => plainProject(width, height, seconds),
});

/** The parity corpus's shader transition (640x360, 2 s), copied as it is. */
async function shaderProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-cost-"));
  await copyFile(new URL("../parity-corpus/shader-transition/index.html", import.meta.url), join(dir, "index.html"));
  return dir;
}

const cards = (name: string, shape: Cards, quality: Quality, format: Format, fps: number | null = null): CostCase => ({
  name, quality, format, fps, make: (ffmpeg) => cardsProject(ffmpeg, shape),
});

const SD = { width: 640, height: 360 };
const HD = { width: 1280, height: 720 };
const FHD = { width: 1920, height: 1080 };

export const COST_CASES: CostCase[] = [
  cards("sd-1s-mp4", { ...SD, seconds: 1 }, "standard", "mp4"),
  cards("sd-2s-mp4", { ...SD, seconds: 2 }, "standard", "mp4"),
  cards("sd-4s-mp4-draft", { ...SD, seconds: 4 }, "draft", "mp4"),
  cards("hd-2s-mp4", { ...HD, seconds: 2 }, "standard", "mp4"),
  cards("hd-4s-mp4-high", { ...HD, seconds: 4 }, "high", "mp4"),
  cards("hd-2s-mp4-60fps", { ...HD, seconds: 2 }, "standard", "mp4", 60),
  cards("fhd-1s-mp4", { ...FHD, seconds: 1 }, "standard", "mp4"),
  cards("fhd-2s-mp4", { ...FHD, seconds: 2 }, "standard", "mp4"),
  cards("fhd-4s-mp4-draft", { ...FHD, seconds: 4 }, "draft", "mp4"),
  cards("fhd-3s-mp4-high", { ...FHD, seconds: 3 }, "high", "mp4"),
  cards("fhd-6s-mp4", { ...FHD, seconds: 6 }, "standard", "mp4"),
  cards("hd-1s-webm", { ...HD, seconds: 1 }, "standard", "webm"),
  cards("hd-2s-webm", { ...HD, seconds: 2 }, "standard", "webm"),
  cards("hd-3s-mp4", { ...HD, seconds: 3 }, "standard", "mp4"),
  cards("hd-2s-blur", { ...HD, seconds: 2, blur: true }, "standard", "mp4"),
  cards("fhd-3s-blur-draft", { ...FHD, seconds: 3, blur: true }, "draft", "mp4"),
  cards("fhd-2s-webm-draft", { ...FHD, seconds: 2 }, "draft", "webm"),
  cards("hd-2s-mov", { ...HD, seconds: 2 }, "standard", "mov"),
  cards("fhd-2s-mov", { ...FHD, seconds: 2 }, "standard", "mov"),
  cards("hd-2s-webm-alpha", { ...HD, seconds: 2, transparent: true }, "standard", "webm"),
  cards("fhd-2s-webm-alpha", { ...FHD, seconds: 2, transparent: true }, "standard", "webm"),
  cards("hd-2s-mov-alpha", { ...HD, seconds: 2, transparent: true }, "standard", "mov"),
  cards("hd-3s-gif", { ...HD, seconds: 3 }, "standard", "gif"),
  cards("fhd-2s-gif", { ...FHD, seconds: 2 }, "standard", "gif"),
  cards("sd-2s-png-sequence", { ...SD, seconds: 2 }, "standard", "png-sequence"),
  cards("hd-2s-png-sequence", { ...HD, seconds: 2 }, "standard", "png-sequence"),
  cards("hd-2s-video-1", { ...HD, seconds: 2, videos: 1 }, "standard", "mp4"),
  cards("fhd-3s-video-2", { ...FHD, seconds: 3, videos: 2 }, "standard", "mp4"),
  cards("hd-2s-audio-2", { ...HD, seconds: 2, audios: 2 }, "standard", "mp4"),
  cards("fhd-2s-audio-3", { ...FHD, seconds: 2, audios: 3 }, "draft", "mp4"),
  plain("plain-sd-1s", 640, 360, 1, "mp4"),
  plain("plain-sd-2s", 640, 360, 2, "mp4"),
  plain("plain-sd-2s-webm", 640, 360, 2, "webm"),
  plain("plain-hd-1s", 1280, 720, 1, "mp4"),
  { name: "shader-sd-2s", quality: "standard", format: "mp4", fps: null, make: shaderProject },
  { name: "shader-sd-2s-60fps", quality: "draft", format: "mp4", fps: 60, make: shaderProject },
];

/** The composition file of a made case, for the features the Worker would read. */
export const readIndex = (project: string) => readFile(join(project, "index.html"), "utf8");
