// One lossless PNG of the page as it is now, by the same capture path as a render frame (beginFrame, or a
// screenshot in the fallback mode).
import type { CaptureBrowser } from "../browser/launch-capture-browser.ts";
import { captureFrame, drawFrame } from "./capture-frame.ts";

const RETRIES = 5;

/** `previous` is returned when beginFrame reports that nothing changed since it was taken (same frame twice). */
export async function capturePng(capture: CaptureBrowser, previous: Buffer | null): Promise<Buffer> {
  if (capture.mode === "beginFrame") {
    // beginFrame answers without an image when nothing changed since the last draw; ask again until it draws.
    const drawn = await drawFrame(capture, { interval: 1000 / 30 }, { jpegQuality: 0, png: true, attempts: RETRIES });
    if (drawn) return drawn;
    if (previous) return previous;
    throw new Error("Chromium produced no image for this frame");
  }
  const shot = await captureFrame(capture, { interval: 1000 / 30 }, 0, true);
  if (!shot) throw new Error("Chromium produced no screenshot");
  return shot;
}
