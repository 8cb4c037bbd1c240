// Takes one JPEG of the page as it is now (a PNG with alpha for a transparent render): a beginFrame draw, or a
// screenshot in the fallback mode.
import type { CaptureBrowser } from "../browser/launch-capture-browser.ts";

export interface FrameClock {
  /** Frame interval in milliseconds. Frame times are left to Chromium's clock (now): animation time comes from seek. */
  interval: number;
}

/**
 * The frame as JPEG bytes (PNG when `png`), or null when beginFrame reported no new frame (the caller repeats the
 * previous one). A PNG is never asked for "optimizeForSpeed": Chromium's fast PNG path drops the alpha values.
 */
export async function captureFrame(capture: CaptureBrowser, clock: FrameClock, jpegQuality: number, png = false): Promise<Buffer | null> {
  const format = png ? ({ format: "png" } as const) : ({ format: "jpeg", quality: jpegQuality, optimizeForSpeed: true } as const);
  if (capture.mode === "beginFrame") {
    const result = await capture.session.send("HeadlessExperimental.beginFrame", {
      interval: clock.interval,
      noDisplayUpdates: false,
      screenshot: format,
    });
    return result.screenshotData ? Buffer.from(result.screenshotData, "base64") : null;
  }
  const result = await capture.session.send("Page.captureScreenshot", { ...format, captureBeyondViewport: false });
  return Buffer.from(result.data, "base64");
}
