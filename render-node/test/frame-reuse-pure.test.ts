// Frame reuse's pure parts, on real GSAP timelines (tweening plain objects, no DOM) and real image headers: when a
// seek between two times can change something, and which image files can move on their own.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { isAnimatedImage } from "../../page-runtime/src/runtime/animated-image.ts";
import { freeGsapAnimation, timelineMoves } from "../../page-runtime/src/runtime/timeline-activity.ts";
import type { Timeline } from "../../page-runtime/src/runtime/page-globals.ts";
import { parseNodeConfig } from "../src/config/node-config.ts";

const { gsap } = createRequire(import.meta.url)("gsap-3.14.2") as { gsap: GsapLike };
interface GsapLike {
  timeline(vars?: Record<string, unknown>): Timeline & { to(...args: unknown[]): unknown; call(...args: unknown[]): unknown; add(...args: unknown[]): unknown; timeScale(v: number): unknown };
  to(target: object, vars: Record<string, unknown>): { kill(): void };
  globalTimeline: unknown;
}

const paused = () => gsap.timeline({ paused: true });

describe("timelineMoves: a seek from a to b changes something only when a child is live in between", () => {
  it("a tween from 1 to 2 s: still before it and after it, moving across its start, inside it and onto its end", () => {
    const tl = paused();
    tl.to({ x: 0 }, { x: 1, duration: 1 }, 1);
    expect(timelineMoves(tl, 0.5, 0.9)).toBe(false);
    expect(timelineMoves(tl, 0.9, 1)).toBe(true);
    expect(timelineMoves(tl, 1.4, 1.5)).toBe(true);
    expect(timelineMoves(tl, 1.9, 2)).toBe(true);
    expect(timelineMoves(tl, 2, 2.1)).toBe(false);
    expect(timelineMoves(tl, 2.5, 3)).toBe(false);
    // A seek that stays put changes nothing.
    expect(timelineMoves(tl, 1.5, 1.5)).toBe(false);
  });

  it("a staggered tween spans every target's share, a repeating one every repeat and its delays", () => {
    const tl = paused();
    tl.to([{ x: 0 }, { x: 0 }, { x: 0 }], { x: 1, duration: 1, stagger: 1 }, 0.5);
    tl.to({ x: 0 }, { x: 1, duration: 1, repeat: 2, repeatDelay: 0.5 }, 5);
    expect(timelineMoves(tl, 3.2, 3.4)).toBe(true);
    expect(timelineMoves(tl, 3.5, 4.9)).toBe(false);
    // Inside a repeat's delay: still live.
    expect(timelineMoves(tl, 6.1, 6.2)).toBe(true);
    expect(timelineMoves(tl, 9, 9.5)).toBe(false);
  });

  it("a call at 1.5 s fires when the playhead reaches it, never after", () => {
    const tl = paused();
    tl.call(() => {}, [], 1.5);
    tl.to({ x: 0 }, { x: 1, duration: 0.1 }, 3);
    expect(timelineMoves(tl, 1.4, 1.49)).toBe(false);
    expect(timelineMoves(tl, 1.4, 1.5)).toBe(true);
    expect(timelineMoves(tl, 1.5, 1.6)).toBe(false);
  });

  it("a nested timeline placed at 2 s and running at double speed: its tween at local 1..2 is root 2.5..3", () => {
    const tl = paused();
    const inner = gsap.timeline();
    inner.to({ x: 0 }, { x: 1, duration: 1 }, 1);
    inner.timeScale(2);
    tl.add(inner, 2);
    expect(timelineMoves(tl, 2.1, 2.4)).toBe(false);
    expect(timelineMoves(tl, 2.4, 2.5)).toBe(true);
    expect(timelineMoves(tl, 2.9, 3)).toBe(true);
    expect(timelineMoves(tl, 3, 3.5)).toBe(false);
  });

  it("what the walk cannot read counts as live over its whole span: repeats, yoyos, a timeline's own callbacks", () => {
    const repeating = paused();
    const inner = gsap.timeline({ repeat: 2 });
    inner.to({ x: 0 }, { x: 1, duration: 0.1 }, 0);
    inner.to({ x: 0 }, { x: 1, duration: 0.1 }, 0.9);
    repeating.add(inner, 0);
    // Between the two tweens of one pass, but the repeat is not walked: live until 3 s.
    expect(timelineMoves(repeating, 0.4, 0.5)).toBe(true);
    expect(timelineMoves(repeating, 3, 4)).toBe(false);
    const withUpdate = gsap.timeline({ paused: true, onUpdate: () => {} });
    withUpdate.to({ x: 0 }, { x: 1, duration: 0.1 }, 0);
    withUpdate.to({ x: 0 }, { x: 1, duration: 0.1 }, 2);
    expect(timelineMoves(withUpdate, 1, 1.1)).toBe(true);
    // Not a GSAP timeline at all: anything that seeks to another time moves.
    const foreign = { pause() {}, seek() {}, duration: () => 5 } as unknown as Timeline;
    expect(timelineMoves(foreign, 4, 4.1)).toBe(true);
    expect(timelineMoves(foreign, 4, 4)).toBe(false);
  });

  it("an unpaused GSAP animation outside the sought timelines plays on the browser's clock", () => {
    const sought = paused();
    expect(freeGsapAnimation(gsap, [sought])).toBeNull();
    const free = gsap.to({ x: 0 }, { x: 1, duration: 10 });
    expect(freeGsapAnimation(gsap, [sought])).toBe("a GSAP animation plays on the browser's clock");
    free.kill();
    expect(freeGsapAnimation(gsap, [sought])).toBeNull();
    expect(freeGsapAnimation(undefined, [])).toBeNull();
  });
});

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const chunk = (type: string, length = 0) => [...[0, 0, 0, length], ...[...type].map((c) => c.charCodeAt(0)), ...new Array(length + 4).fill(0)];

describe("isAnimatedImage: what can move on its own once shown", () => {
  it("reads each format's animation marker and errs towards moving", () => {
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    expect(isAnimatedImage(bytes(png, chunk("IHDR", 13), chunk("IDAT", 4), chunk("IEND")))).toBe(false);
    expect(isAnimatedImage(bytes(png, chunk("IHDR", 13), chunk("acTL", 8), chunk("IDAT", 4)))).toBe(true);
    // Cut off before any image data: unknown, so moving.
    expect(isAnimatedImage(bytes(png, chunk("IHDR", 13)))).toBe(true);
    expect(isAnimatedImage(bytes("GIF89a", [1, 0, 1, 0]))).toBe(true);
    expect(isAnimatedImage(bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 ", [0, 0, 0, 0]))).toBe(false);
    expect(isAnimatedImage(bytes("RIFF", [0, 0, 0, 0], "WEBPVP8X", [0, 0, 0, 0], "ANIM"))).toBe(true);
    expect(isAnimatedImage(bytes([0, 0, 0, 0x1c], "ftypavif", [0, 0, 0, 0], "mif1avif"))).toBe(false);
    expect(isAnimatedImage(bytes([0, 0, 0, 0x1c], "ftypavis", [0, 0, 0, 0], "msf1avif"))).toBe(true);
    expect(isAnimatedImage(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe(false);
    expect(isAnimatedImage(bytes('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>'))).toBe(false);
    expect(isAnimatedImage(bytes('<svg xmlns="http://www.w3.org/2000/svg"><rect><animate attributeName="x"/></rect></svg>'))).toBe(true);
    expect(isAnimatedImage(bytes('<?xml version="1.0"?><svg><style>rect{animation:a 1s}</style></svg>'))).toBe(true);
    expect(isAnimatedImage(bytes("wOF2", [0, 1, 0, 0]))).toBe(false);
  });
});

describe("STUDIO_FRAME_REUSE", () => {
  const frameReuse = (env: Record<string, string>) => parseNodeConfig({ STUDIO_URL: "http://studio.test", NODE_KEY: "stn_test", ...env }).frameReuse;
  it("is on unless the node's STUDIO_FRAME_REUSE turns it off", () => {
    expect(frameReuse({})).toBe(true);
    for (const off of ["off", "0", "false", "no", " OFF "]) expect(frameReuse({ STUDIO_FRAME_REUSE: off })).toBe(false);
    expect(frameReuse({ STUDIO_FRAME_REUSE: "on" })).toBe(true);
  });
});
