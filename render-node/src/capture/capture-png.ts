// One lossless PNG of the page as it is now, by the same capture path as a render frame (beginFrame, or a
// screenshot in the fallback mode).
import type { CaptureBrowser } from "../browser/launch-capture-browser.ts";

const RETRIES = 5;

/** `previous` is returned when beginFrame reports that nothing changed since it was taken (same frame twice). */
export async function capturePng(capture: CaptureBrowser, previous: Buffer | null): Promise<Buffer> {
  if (capture.mode === "beginFrame") {
    // beginFrame answers without an image when nothing changed since the last draw; ask again until it draws.
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      const result = await capture.session.send("HeadlessExperimental.beginFrame", {
        interval: 1000 / 30,
        noDisplayUpdates: false,
        screenshot: { format: "png" },
      });
      if (result.screenshotData) return Buffer.from(result.screenshotData, "base64");
    }
    if (previous) return previous;
    throw new Error("Chromium produced no image for this frame");
  }
  const result = await capture.session.send("Page.captureScreenshot", { format: "png", captureBeyondViewport: false });
  return Buffer.from(result.data, "base64");
}
