// Opens a composition in a capture page and waits until the runtime has inlined and prepared it.
import type { CaptureBrowser } from "./launch-capture-browser.ts";
import type { CompositionInfo, StudioWindow } from "./composition-info.ts";
import { interceptRequests } from "./intercept-requests.ts";

/** Loads `url` (served by serve-project) in the capture page and returns the composition's info. */
export async function loadComposition(
  capture: CaptureBrowser,
  url: string,
  origin: string,
  onLine: (line: string) => void,
): Promise<CompositionInfo> {
  const { page } = capture;
  page.on("pageerror", (error) => onLine(`page error: ${error instanceof Error ? error.message : String(error)}`));
  page.on("console", (message) => {
    if (message.type() === "error") onLine(`page console error: ${message.text()}`);
  });
  await interceptRequests(page, origin, onLine);
  const response = await page.goto(url, { waitUntil: "load", timeout: 60_000 });
  if (response && !response.ok()) throw new Error(`composition could not be loaded: HTTP ${response.status()} for ${url}`);
  await page.evaluate(() => (window as unknown as StudioWindow).__studio.ready());
  return page.evaluate(() => (window as unknown as StudioWindow).__studio.info());
}
