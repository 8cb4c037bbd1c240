// Readies a loaded composition page for capture: the viewport at the output's CSS size and scale, and the runtime
// told the frame rate and where a <video>'s extracted frames are served. Bounded like a frame (paced: on a loaded
// machine this is slow, not hung; paced-deadline.ts).
import type { RuntimeConfig, StudioWindow } from "../../../page-runtime/api.ts";
import type { Viewport } from "../plan/settle-render.ts";
import type { ExtractedVideos } from "../media/extract-video-frames.ts";
import type { CaptureBrowser } from "./launch-capture-browser.ts";
import { clearPageBackground } from "./page-background.ts";
import { seconds } from "../bounds/deadline.ts";
import type { Bounded } from "../bounds/bounded.ts";
import type { Fps } from "../plan/resolve-render.ts";

export function prepareCapturePage(
  browser: CaptureBrowser,
  input: { viewport: Viewport; fps: Fps; videos: ExtractedVideos; composition: string; bounded: Bounded; alpha: boolean },
): Promise<void> {
  const { viewport } = input;
  const prepare = async () => {
    await browser.session.send("Emulation.setDeviceMetricsOverride", {
      width: viewport.cssWidth, height: viewport.cssHeight, deviceScaleFactor: viewport.deviceScaleFactor, mobile: false,
    });
    await browser.page.evaluate(
      (config: RuntimeConfig) => (window as unknown as StudioWindow).__studio.configure(config),
      {
        fps: [input.fps.num, input.fps.den], videoFrameUrl: "/__studio/video/{folder}/{frame}.jpg", videoFrames: input.videos.videos,
      } satisfies RuntimeConfig,
    );
    // A render that keeps alpha: no page or default background under the composition (page-background.ts).
    if (input.alpha) await clearPageBackground(browser);
  };
  const { frameMs } = input.bounded.bounds;
  return input.bounded.inPage(prepare(), frameMs, browser.pid, () => `composition ${input.composition}: preparing the page for capture did not finish in ${seconds(frameMs)}`);
}
