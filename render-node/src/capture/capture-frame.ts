// Takes one JPEG of the page as it is now (a PNG with alpha for a transparent render): a beginFrame draw, or a
// screenshot in the fallback mode. Callers ask drawFrame: the draw, asked again while beginFrame draws nothing.
import type { CaptureBrowser } from "../browser/launch-capture-browser.ts";
import { retry } from "../../../core/retry.ts";

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

// An empty answer, asked again: the one error askUntilDrawn retries.
class NothingDrawn extends Error {}

/**
 * `draw` up to `attempts` times until it gives an image (beginFrame answers none when nothing changed on screen
 * since the last draw), through core's one retry loop with no wait between (the next beginFrame draws at once).
 * Null when every answer was empty; any other failure is thrown as it came.
 */
export async function askUntilDrawn(attempts: number, draw: () => Promise<Buffer | null>): Promise<Buffer | null> {
  const outcome = await retry(async () => {
    const bytes = await draw();
    if (!bytes) throw new NothingDrawn("beginFrame drew nothing");
    return bytes;
  }, { attempts, backoff: { firstMs: 0 }, retryable: (error) => error instanceof NothingDrawn });
  if (outcome.ok) return outcome.value;
  if (outcome.error instanceof NothingDrawn) return null;
  throw outcome.error;
}

/** How a frame is drawn: its image and how often an empty answer is asked again. */
export interface DrawRequest {
  jpegQuality: number;
  /** A PNG with alpha in place of a JPEG. */
  png?: boolean | undefined;
  /** Draws tried before the answer is null (beginFrame drew nothing each time). */
  attempts: number;
  /** Bounds each draw on its own (the frame's paced bound), when given. */
  bound?: ((draw: Promise<Buffer | null>) => Promise<Buffer | null>) | undefined;
}

/** The page drawn once: captureFrame through askUntilDrawn, each draw under `bound`. Null when nothing was drawn. */
export function drawFrame(capture: CaptureBrowser, clock: FrameClock, request: DrawRequest): Promise<Buffer | null> {
  const { jpegQuality, png = false, attempts, bound } = request;
  const draw = () => {
    const drawing = captureFrame(capture, clock, jpegQuality, png);
    return bound ? bound(drawing) : drawing;
  };
  return askUntilDrawn(attempts, draw);
}
