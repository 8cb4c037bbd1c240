// The browser half of POST .../check: loads the composition as a render does and reports runtime problems
// (console and page errors, failed, blocked or missing requests, unregistered timelines, duration mismatches),
// then inspects the layout at sample times.
import type { StageBounds } from "../bounds/stage-bounds.ts";
import { analyzeLayout, mergeAcrossTimes } from "../../../core/browser/analyze-layout.ts";
import type { CheckOptions } from "../../../core/browser/browser-options.ts";
import { checkFinding, checkFindingOf, type CheckCode, type CheckFinding } from "../../../core/browser/check-findings.ts";
import { checkTimes } from "../../../core/browser/sample-times.ts";
import { formatFindingLine, type Finding } from "../../../core/protocol/finding.ts";
import { isPolicyRefusalMessage } from "../browser/blocked-attempt.ts";
import { collectLayout, SKIP_TAGS } from "./collect-layout.ts";
import { openComposition } from "../browser/open-composition.ts";
import { reportLateFindings } from "../browser/late-findings.ts";
import type { TimelineFacts } from "../../../core/protocol/page-report.ts";
import { readLayout, readTimelineFacts } from "../../../core/protocol/read-page-answers.ts";
import { pageReportFinding } from "../../../core/protocol/read-page-report.ts";

/** One frame of slack: a timeline may end within a frame of data-duration. */
const DURATION_SLACK_S = 1 / 30 + 1e-3;
/** The composition a check opens. */
const ROOT_FILE = "index.html";

export interface CheckReport {
  runtime: CheckFinding[];
  layout: CheckFinding[];
  times: number[];
}

/**
 * Which of the loader's findings are runtime findings of check, as they arrive (structured, from the page and the
 * node's request policy). Check hears the page's uncaught errors itself, so the runtime's report of an error in the
 * root file would say it twice; GSAP substitutions and the like are render notes, not check findings.
 */
export function isRuntimeFinding(finding: Finding, rootFile = ROOT_FILE): finding is Finding & { code: CheckCode } {
  switch (finding.code) {
    case "missing-asset":
    case "request-blocked":
    case "font-fallback":
    case "composition-load-failed":
    case "start-unresolved":
    case "feature-unsupported":
    case "page-report-invalid":
      return true;
    case "page-error":
      // A timeline callback that threw while seeking (it has a time) was caught by the runtime: no pageerror saw it.
      return finding.file !== rootFile || finding.time !== undefined;
    default:
      return false;
  }
}

/**
 * The runtime section: each finding once, without a sub-composition that did not mount because its file is missing
 * (that is its missing-asset finding already).
 */
export function runtimeSection(found: ReadonlyArray<CheckFinding & { asset?: string | undefined }>): CheckFinding[] {
  const missing = new Set(found.filter((f) => f.code === "missing-asset").map((f) => f.asset));
  const seen = new Set<string>();
  return found
    .filter((f) => !(f.code === "composition-load-failed" && f.asset !== undefined && missing.has(f.asset)))
    .filter((f) => {
      const key = `${f.code}\u0000${f.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((f) => checkFindingOf(f));
}

export async function checkComposition(input: {
  projectDir: string;
  chrome: string;
  /** Page-load, timeline and seek bounds (default DEFAULT_STAGE_BOUNDS). */
  bounds?: StageBounds | undefined;
  options: CheckOptions;
  signal: AbortSignal;
  onLine: (line: string) => void;
  onStage?: ((stage: string) => void) | undefined;
}): Promise<CheckReport> {
  const stage = input.onStage ?? input.onLine;
  const found: Array<CheckFinding & { asset?: string | undefined }> = [];
  const add = (finding: CheckFinding) => found.push(finding);
  const onFinding = (finding: Finding) => {
    input.onLine(formatFindingLine(finding));
    if (isRuntimeFinding(finding)) found.push(finding);
  };
  const finish = () => runtimeSection(found);
  stage("loading the composition in Chromium");
  let opened;
  try {
    opened = await openComposition({
      projectDir: input.projectDir,
      chrome: input.chrome,
      bounds: input.bounds,
      preferBeginFrame: false,
      signal: input.signal,
      onLine: input.onLine,
      onFinding,
      beforeLoad: ({ page }) => {
        // The page's uncaught errors and console errors, heard here as data (the loader only logs them).
        page.on("pageerror", (error) => add(checkFinding("page-error", ROOT_FILE, `uncaught error in the page: ${error instanceof Error ? error.message : String(error)}`)));
        page.on("console", (message) => {
          const text = message.text();
          // The browser logs every failed resource; those are reported once, with their URL, as request findings.
          // Chromium's words for a refused load are request-blocked findings already.
          if (message.type() !== "error" || isPolicyRefusalMessage(text) || text.startsWith("Failed to load resource")) return;
          add(checkFinding("console-error", ROOT_FILE, `console.error: ${text}`));
        });
        page.on("requestfailed", (request) => {
          const url = request.url();
          const reason = request.failure()?.errorText ?? "failed";
          // Refused by interception, the page's CSP or the dead proxy: reported as request-blocked.
          if (/BLOCKED_BY_CLIENT|BLOCKED_BY_CSP|PROXY_CONNECTION_FAILED|TUNNEL_CONNECTION_FAILED|EMPTY_RESPONSE/.test(reason)) return;
          add(checkFinding("request-failed", ROOT_FILE, `request for ${url} failed: ${reason}`));
        });
      },
    });
  } catch (error) {
    if (input.signal.aborted) throw error;
    add(checkFinding("composition-load-failed", ROOT_FILE, `the composition did not load: ${error instanceof Error ? error.message : String(error)}`));
    return { runtime: finish(), layout: [], times: [] };
  }
  try {
    const { info } = opened;
    const rawFacts: unknown = await opened.capture.page.evaluate((): TimelineFacts[] => {
      const timelines = (window as unknown as { __timelines: Record<string, { duration?: () => number } | undefined> }).__timelines ?? {};
      const seenIds = new Set<string>();
      return Array.from(document.querySelectorAll("[data-composition-id]")).flatMap((el) => {
        const id = el.getAttribute("data-composition-id") ?? "";
        if (seenIds.has(id)) return [];
        seenIds.add(id);
        const tl = timelines[id];
        const declared = Number(el.getAttribute("data-duration"));
        return [{
          id,
          file: el.getAttribute("data-composition-src") ?? "index.html",
          declared: el.hasAttribute("data-duration") && Number.isFinite(declared) ? declared : null,
          timeline: tl && typeof tl.duration === "function" ? tl.duration() : null,
        }];
      });
    });
    // The page's scripts can answer for these (a fake timeline's duration()): parsed, forged ones left out.
    const facts = readTimelineFacts(rawFacts);
    for (const problem of facts.problems) onFinding(pageReportFinding(ROOT_FILE, problem));
    for (const f of facts.value) {
      const selector = `[data-composition-id="${f.id}"]`;
      if (f.timeline === null) {
        add(checkFinding("timeline-not-registered", f.file, `composition "${f.id}" registered no timeline on window.__timelines["${f.id}"], so the renderer cannot seek it`, {
          selector,
          fixHint: `create the timeline paused and assign it: window.__timelines["${f.id}"] = gsap.timeline({ paused: true })`,
        }));
      } else if (f.declared !== null && f.timeline > f.declared + DURATION_SLACK_S) {
        add(checkFinding("duration-mismatch", f.file, `timeline "${f.id}" lasts ${round(f.timeline)} s but data-duration is ${f.declared} s: the end is cut off`, {
          selector,
          fixHint: `make data-duration ${round(f.timeline)} or shorten the animation`,
        }));
      }
    }
    const times = checkTimes(info.duration, input.options);
    const layout = [];
    for (const [i, t] of times.entries()) {
      input.signal.throwIfAborted();
      stage(`inspecting the layout at ${t} s (${i + 1}/${times.length})`);
      await opened.seek(t);
      const measured = readLayout(await opened.capture.page.evaluate(collectLayout, SKIP_TAGS), t);
      for (const problem of measured.problems) onFinding(pageReportFinding(ROOT_FILE, problem));
      layout.push(...analyzeLayout(measured.value, { width: info.width, height: info.height }, t));
    }
    // Errors raised while the layout was sought (timeline callbacks, timers) are runtime findings too.
    await reportLateFindings([opened.capture.page], ROOT_FILE, new Set(info.findings.map((f) => f.message)), onFinding, false);
    return { runtime: finish(), layout: mergeAcrossTimes(layout), times };
  } finally {
    await opened.close();
  }
}

function round(t: number): number {
  return Math.round(t * 1000) / 1000;
}
