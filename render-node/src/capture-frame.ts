// Takes one JPEG of the page as it is now: a beginFrame draw, or a screenshot in the fallback mode.
import type { CaptureBrowser } from "./launch-capture-browser.ts";

export interface FrameClock {
  /** Frame interval in milliseconds. Frame times are left to Chromium's clock (now): animation time comes from seek. */
  interval: number;
}

/** The frame as JPEG bytes, or null when beginFrame reported no new frame (the caller repeats the previous one). */
export async function captureFrame(capture: CaptureBrowser, clock: FrameClock, jpegQuality: number): Promise<Buffer | null> {
  if (capture.mode === "beginFrame") {
    const result = await capture.session.send("HeadlessExperimental.beginFrame", {
      interval: clock.interval,
      noDisplayUpdates: false,
      screenshot: { format: "jpeg", quality: jpegQuality, optimizeForSpeed: true },
    });
    return result.screenshotData ? Buffer.from(result.screenshotData, "base64") : null;
  }
  const result = await capture.session.send("Page.captureScreenshot", {
    format: "jpeg",
    quality: jpegQuality,
    optimizeForSpeed: true,
    captureBeyondViewport: false,
  });
  return Buffer.from(result.data, "base64");
}
