// The browser half of POST .../check: loads the composition as a render does and reports runtime problems
// (console and page errors, failed, blocked or missing requests, unregistered timelines, duration mismatches),
// then inspects the layout at sample times.
import { analyzeLayout, mergeAcrossTimes } from "../../core/browser/analyze-layout.ts";
import type { CheckOptions } from "../../core/browser/browser-options.ts";
import { checkFinding, type CheckFinding } from "../../core/browser/check-findings.ts";
import { parseMissingAssetLine } from "../../core/browser/missing-asset.ts";
import { checkTimes } from "../../core/browser/sample-times.ts";
import { parseBlockedAttemptLine } from "./blocked-attempt.ts";
import { parseFontFallbackLine } from "./find-font-fallbacks.ts";
import { collectLayout, SKIP_TAGS } from "./collect-layout.ts";
import { openComposition } from "./open-composition.ts";
import { reportLateProblems } from "./late-problems.ts";

/** One frame of slack: a timeline may end within a frame of data-duration. */
const DURATION_SLACK_S = 1 / 30 + 1e-3;

export interface CheckReport {
  runtime: CheckFinding[];
  layout: CheckFinding[];
  times: number[];
}

interface TimelineFacts {
  id: string;
  file: string;
  declared: number | null;
  timeline: number | null;
}

/** Turns the loader's log lines (the render pipeline's wording) into runtime findings. */
export function runtimeFindingFromLine(line: string): CheckFinding | null {
  if (line.startsWith("page error: ")) return checkFinding("page-error", "index.html", `uncaught error in the page: ${line.slice(12)}`);
  if (line.startsWith("page console error: ")) {
    const text = line.slice(20);
    // The browser logs every failed resource; those are reported once, with their URL, as request findings.
    if (text.startsWith("Failed to load resource")) return null;
    return checkFinding("console-error", "index.html", `console.error: ${text}`);
  }
  const font = parseFontFallbackLine(line);
  if (font) {
    return checkFinding("font-fallback", font.files[0]!, `font "${font.family}" is not available, so its text is drawn with a fallback font${font.files.length > 1 ? ` (also used in ${font.files.slice(1).join(", ")})` : ""}`, {
      fixHint: "add an @font-face with a font file in the project, link the family from Google Fonts, or use a bundled family (Inter, Roboto, Montserrat, ...)",
    });
  }
  const missing = parseMissingAssetLine(line);
  if (missing) {
    return checkFinding("missing-asset", missing.referrer ?? missing.path, line.slice("finding: ".length), {
      fixHint: `upload ${missing.path}, or fix the path${missing.referrer ? ` in ${missing.referrer}` : ""} (paths are relative to the file that references them)`,
    });
  }
  // The runtime's findings that name a file: a sub-composition's script error (the page's own are page errors
  // above) and a sub-composition that did not mount (a missing file is already a missing-asset finding).
  const scriptError = /^finding: script error in (.+?): (.*)$/.exec(line);
  if (scriptError && scriptError[1] !== "index.html") {
    return checkFinding("page-error", scriptError[1]!, `uncaught error in ${scriptError[1]}: ${scriptError[2]}`);
  }
  const unmounted = /^finding: sub-composition (.+?) did not mount: (.*)$/.exec(line);
  if (unmounted && !/HTTP 404$/.test(unmounted[2]!)) {
    return checkFinding("composition-load-failed", unmounted[1]!, `sub-composition ${unmounted[1]} did not mount: ${unmounted[2]}`);
  }
  const blocked = parseBlockedAttemptLine(line);
  if (blocked) {
    return checkFinding("request-blocked", "index.html", `${blocked.channel} to ${blocked.target} was blocked: compositions load only project files and GSAP, and reach nothing else`, {
      fixHint: "put the file into the project (assets/) and reference it by a relative path; a composition cannot use the network",
    });
  }
  return null;
}

export async function checkComposition(input: {
  projectDir: string;
  chrome: string;
  options: CheckOptions;
  signal: AbortSignal;
  onLine: (line: string) => void;
  onStage?: ((stage: string) => void) | undefined;
}): Promise<CheckReport> {
  const stage = input.onStage ?? input.onLine;
  const runtime: CheckFinding[] = [];
  const seen = new Set<string>();
  const add = (finding: CheckFinding | null) => {
    if (!finding) return;
    const key = `${finding.code}\u0000${finding.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    runtime.push(finding);
  };
  const onLine = (line: string) => {
    input.onLine(line);
    add(runtimeFindingFromLine(line));
  };
  stage("loading the composition in Chromium");
  let opened;
  try {
    opened = await openComposition({
      projectDir: input.projectDir,
      chrome: input.chrome,
      preferBeginFrame: false,
      signal: input.signal,
      onLine,
      beforeLoad: ({ page }, origin) => {
        page.on("requestfailed", (request) => {
          const url = request.url();
          const reason = request.failure()?.errorText ?? "failed";
          // Refused by interception, the page's CSP or the dead proxy: reported as request-blocked.
          if (/BLOCKED_BY_CLIENT|BLOCKED_BY_CSP|PROXY_CONNECTION_FAILED|TUNNEL_CONNECTION_FAILED|EMPTY_RESPONSE/.test(reason)) return;
          add(checkFinding("request-failed", "index.html", `request for ${url} failed: ${reason}`));
        });
      },
    });
  } catch (error) {
    if (input.signal.aborted) throw error;
    add(checkFinding("composition-load-failed", "index.html", `the composition did not load: ${error instanceof Error ? error.message : String(error)}`));
    return { runtime, layout: [], times: [] };
  }
  try {
    const { info } = opened;
    const facts = await opened.capture.page.evaluate((): TimelineFacts[] => {
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
    for (const f of facts) {
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
      const measured = await opened.capture.page.evaluate(collectLayout, SKIP_TAGS);
      layout.push(...analyzeLayout(measured, { width: info.width, height: info.height }, t));
    }
    // Errors raised while the layout was sought (timeline callbacks, timers) are runtime findings too.
    await reportLateProblems([opened.capture.page], new Set(info.problems), onLine, false);
    return { runtime, layout: mergeAcrossTimes(layout), times };
  } finally {
    await opened.close();
  }
}

function round(t: number): number {
  return Math.round(t * 1000) / 1000;
}
