// Opens a composition in a capture page and waits until the runtime has inlined and prepared it.
import type { CaptureBrowser } from "./launch-capture-browser.ts";
import type { CompositionInfo, StudioWindow } from "../../../page-runtime/api.ts";
import { missingAssetFromResponse, missingAssetFinding } from "../../../core/browser/missing-asset.ts";
import { clampText, FINDING_LIMITS, makeFinding, strictFailure, type Finding } from "../../../core/protocol/finding.ts";
import { readCompositionInfo } from "../../../core/protocol/read-composition-info.ts";
import { pageReportFinding } from "../../../core/protocol/read-page-report.ts";
import { blockedAttemptFinding, isPolicyRefusalMessage, limitBlockedAttempts } from "./blocked-attempt.ts";
import { interceptRequests } from "./intercept-requests.ts";
import { foreignLibraryFinding, readForeignLibraryTraces } from "./foreign-libraries.ts";
import { findFontFallbacks, fontFallbackFinding } from "./find-font-fallbacks.ts";
import { seconds, StageTimeout } from "../bounds/deadline.ts";
import { bounded, type Bounded } from "../bounds/bounded.ts";

export interface LoadOptions {
  /** Bounds of the page-load and timeline stages (a hanging page fails naming the stage); default DEFAULT_STAGE_BOUNDS. */
  bounded?: Bounded | undefined;
  /** A render needs the root composition's timeline: wait for it (bounded) instead of reading a page without one. */
  waitForTimeline?: boolean | undefined;
  /** Strict: a timeline that never registers fails the render instead of being a finding. */
  strict?: boolean | undefined;
  /** Render-time variables: window.__hfVariables before any page script runs (page-runtime variables.ts reads it). */
  variables?: Record<string, unknown> | undefined;
}

/** The composition's project path, for messages: `index.html` of http://127.0.0.1:port/index.html?studio=render. */
function compositionName(url: string): string {
  return decodeURIComponent(new URL(url).pathname).replace(/^\/+/, "");
}
import { watchNetworkAttempts } from "./watch-network-attempts.ts";

/** Where a loading page reports: log lines, and findings as data (made into text only where they are logged). */
export interface LoadReporters {
  onLine: (line: string) => void;
  onFinding: (finding: Finding) => void;
}

/** Loads `url` (served by serve-project) in the capture page and returns the composition's info. */
export async function loadComposition(
  capture: CaptureBrowser,
  url: string,
  origin: string,
  { onLine, onFinding }: LoadReporters,
  options: LoadOptions = {},
): Promise<CompositionInfo> {
  const { page } = capture;
  const held = options.bounded ?? bounded();
  const { bounds } = held;
  const name = compositionName(url);
  const report = limitBlockedAttempts(onFinding, onLine);
  // The page writes these texts (any length): each line is cut to a finding message's length.
  page.on("pageerror", (error) => onLine(clampText(`page error: ${error instanceof Error ? error.message : String(error)}`, FINDING_LIMITS.message)));
  page.on("console", (message) => {
    // Chromium's own words for a refused load also reach the console; the watcher reports those as blocked attempts.
    if (message.type() === "error" && !isPolicyRefusalMessage(message.text())) onLine(clampText(`page console error: ${message.text()}`, FINDING_LIMITS.message));
  });
  // A project file the page asked for and the server does not have (an image, a video, a font, a CSS url()) is a
  // finding naming the file and, from the referrer, who asked for it: never a silently blank spot in the video.
  page.on("response", (response) => {
    // The composition page itself failing is the load error below, not a missing asset.
    if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) return;
    const missing = missingAssetFromResponse(origin, response.url(), response.status(), response.request().headers()["referer"]);
    if (!missing) return;
    const finding = missingAssetFinding(missing);
    firstMissing ??= finding;
    onFinding(finding);
  });
  // A missing file is usually the cause of what follows it (a script error, a font that fell back), so a strict
  // load fails on it first, naming the cause rather than its symptom.
  let firstMissing: Finding | undefined;
  const failOnMissing = () => {
    if (options.strict && firstMissing !== undefined) throw strictFailure(firstMissing);
  };
  await watchNetworkAttempts(capture, (attempt) => report(blockedAttemptFinding(attempt, name)));
  await interceptRequests(page, origin, name, report);
  if (options.variables && Object.keys(options.variables).length > 0) {
    // Parsed in the page from JSON text, so no value can be code; set before the runtime and every composition script.
    await page.evaluateOnNewDocument((json: string) => {
      (window as unknown as { __hfVariables?: unknown }).__hfVariables = JSON.parse(json);
    }, JSON.stringify(options.variables));
  }
  // Puppeteer's own navigation timeout is off: the bound below covers navigation and the runtime's preparation
  // together and says what overran.
  const loading = (async () => {
    const response = await page.goto(url, { waitUntil: "load", timeout: 0 });
    if (response && !response.ok()) throw new Error(`composition could not be loaded: HTTP ${response.status()} for ${url}`);
    await page.evaluate(() => (window as unknown as StudioWindow).__studio.ready());
  })();
  // Paced: on a loaded machine a page loads slowly without hanging (paced-deadline.ts).
  await held.inPage(loading, bounds.pageLoadMs, capture.pid, () => `composition ${name} did not finish loading in ${seconds(bounds.pageLoadMs)}`);
  // The answer is the page's to forge: parsed here (core/protocol/page-report.ts) before the node uses any of it.
  const readInfo = async (): Promise<CompositionInfo> => {
    const raw: unknown = await held.inPage(
      page.evaluate(() => (window as unknown as StudioWindow).__studio.info()),
      bounds.timelineMs, capture.pid,
      () => `composition ${name}: reading its timelines did not finish in ${seconds(bounds.timelineMs)}`,
    );
    const read = readCompositionInfo(raw);
    const findings = read.problems.map((problem) => pageReportFinding(name, problem));
    for (const finding of findings) onFinding(finding);
    // Without a sound root (id, size, duration) there is nothing to render: the render fails naming the field.
    if (read.value === null) throw new Error(findings[0]?.message ?? `the page's info() could not be read`);
    if (options.strict && findings[0]) throw strictFailure(findings[0]);
    return read.value;
  };
  const info = await readInfo();
  failOnMissing();
  // A library the studio replaces, running as itself, would draw its own loading screen: said, never silent.
  const traces = await held.inPage(readForeignLibraryTraces(page), bounds.timelineMs, capture.pid, () => `composition ${name}: checking its libraries did not finish in ${seconds(bounds.timelineMs)}`);
  const foreign = foreignLibraryFinding(traces, name);
  if (foreign) {
    onFinding(foreign);
    if (options.strict) throw strictFailure(foreign);
  }
  reportPageFindings(info, onFinding, options.strict);
  // A font that fell back is a finding; under strict the render fails naming file and family.
  const fallbacks = await held.inPage(findFontFallbacks(page, origin, name, onFinding), bounds.timelineMs, capture.pid, () => `composition ${name}: checking its fonts did not finish in ${seconds(bounds.timelineMs)}`);
  const fontFindings = fallbacks.map(fontFallbackFinding);
  for (const finding of fontFindings) onFinding(finding);
  failOnMissing();
  if (options.strict && fontFindings[0]) throw strictFailure(fontFindings[0]);
  if (!options.waitForTimeline || !info.compositionId || info.timelines.includes(info.compositionId)) return info;
  // Registered later (after a font, a fetch, a timer): wait in the page, polling by timer, since a beginFrame
  // page runs no animation frames between captures. Never registered: under strict the render fails naming the
  // stage; otherwise it is rendered as a still picture with a finding that says so (no silent success).
  const id = info.compositionId;
  const missing = `composition "${id}" registered no timeline on window.__timelines["${id}"] in ${seconds(bounds.timelineMs)}`;
  const registered = await held.within(
    page
      .waitForFunction((key: string) => Boolean((window as unknown as { __timelines?: Record<string, unknown> }).__timelines?.[key]), { polling: 100, timeout: bounds.timelineMs }, id)
      .then(() => true),
    bounds.timelineMs + 1000,
    missing,
  ).catch((error: unknown) => {
    if (options.strict || !(error instanceof StageTimeout || (error instanceof Error && error.name === "TimeoutError"))) {
      throw error instanceof StageTimeout ? error : new StageTimeout(missing);
    }
    return false;
  });
  if (!registered) {
    onFinding(makeFinding("timeline-not-registered", name, `${missing}; rendered without animation (a strict render fails)`, { selector: `[data-composition-id="${id}"]` }));
    return info;
  }
  const later = await readInfo();
  reportPageFindings(later, onFinding, options.strict);
  return later;
}

/** The page's own findings (script errors, unmounted sub-compositions), and under strict the first fails the load. */
function reportPageFindings(info: CompositionInfo, onFinding: (finding: Finding) => void, strict: boolean | undefined): void {
  for (const finding of info.findings) onFinding(finding);
  const first = info.findings[0];
  if (strict && first !== undefined) throw strictFailure(first);
}
