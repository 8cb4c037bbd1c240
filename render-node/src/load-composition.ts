// Opens a composition in a capture page and waits until the runtime has inlined and prepared it.
import type { CaptureBrowser } from "./launch-capture-browser.ts";
import type { CompositionInfo, StudioWindow } from "./composition-info.ts";
import { blockedAttemptLine, isPolicyRefusalMessage, limitBlockedAttempts } from "./blocked-attempt.ts";
import { interceptRequests } from "./intercept-requests.ts";
import { watchNetworkAttempts } from "./watch-network-attempts.ts";

/** Loads `url` (served by serve-project) in the capture page and returns the composition's info. */
export async function loadComposition(
  capture: CaptureBrowser,
  url: string,
  origin: string,
  onLine: (line: string) => void,
): Promise<CompositionInfo> {
  const { page } = capture;
  const report = limitBlockedAttempts(onLine);
  page.on("pageerror", (error) => onLine(`page error: ${error instanceof Error ? error.message : String(error)}`));
  page.on("console", (message) => {
    // Chromium's own words for a refused load also reach the console; the watcher reports those as blocked attempts.
    if (message.type() === "error" && !isPolicyRefusalMessage(message.text())) onLine(`page console error: ${message.text()}`);
  });
  await watchNetworkAttempts(capture, (attempt) => report(blockedAttemptLine(attempt)));
  await interceptRequests(page, origin, report);
  const response = await page.goto(url, { waitUntil: "load", timeout: 60_000 });
  if (response && !response.ok()) throw new Error(`composition could not be loaded: HTTP ${response.status()} for ${url}`);
  await page.evaluate(() => (window as unknown as StudioWindow).__studio.ready());
  return page.evaluate(() => (window as unknown as StudioWindow).__studio.info());
}
