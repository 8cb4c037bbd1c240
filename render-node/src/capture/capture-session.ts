// The node's side of a render: the project served, the network sink up, a scratch folder, one abort signal for all
// it starts, the findings collected once each, and the browsers it launches, each loading the page it is given.
// It holds none of the job's options: the stages (plan-render.ts, capture-frames.ts, the mix and the join) are
// handed those, each the few it reads, and the session only what they start in it.
import { join, relative, resolve, sep } from "node:path";
import { formatFindingLine, strictFailure, type Finding } from "../../../core/protocol/finding.ts";
import { blockedAttemptFinding, limitBlockedAttempts } from "../browser/blocked-attempt.ts";
import type { CompositionInfo } from "../../../page-runtime/api.ts";
import { launchCaptureBrowser } from "../browser/launch-capture-browser.ts";
import type { CaptureBrowser } from "../browser/launch-capture-browser.ts";
import { loadComposition } from "../browser/load-composition.ts";
import { startNetworkSink } from "../browser/network-sink.ts";
import { networkIsolationFlags } from "../browser/network-policy.ts";
import { resolveBinaries } from "../system/resolve-binaries.ts";
import { makeScratchDir, removeScratchDir } from "../system/scratch-dirs.ts";
import { serveProject } from "../browser/serve-project.ts";
import { startTimeline, type Timeline } from "../progress/render-timeline.ts";
import { DEFAULT_STAGE_BOUNDS } from "../bounds/stage-bounds.ts";
import { DEFAULT_SCRATCH_BUDGET, type ScratchBudget } from "../media/scratch-budget.ts";
import type { SessionInput } from "./capture-options.ts";
import { logDebug } from "../system/debug-log.ts";
import { settled as ended } from "../../../core/settled.ts";
import { stageTools, type StageTools } from "../system/stage-tools.ts";

/** The page a browser loads: the composition's URL on the project server, and how the request loads it. */
export interface PageToLoad {
  url: string;
  strict: boolean;
  variables: Record<string, unknown> | undefined;
}

/** A browser with the composition loaded in it, and what the page said of itself. */
export interface LoadedBrowser {
  browser: CaptureBrowser;
  info: CompositionInfo;
}

export interface CaptureSession {
  projectDir: string;
  /** Scratch folder of the session, removed when it ends. */
  work: string;
  /** Stops on the caller's cancel and on any failure of the session. */
  signal: AbortSignal;
  /** The session's binaries, bounds and signal, with its ffmpeg runs and bounded awaits: what each stage is handed. */
  tools: StageTools;
  /** The stages so far, with their times and how busy the cores were (render-timeline.ts). */
  timeline: Timeline;
  /** Every finding so far, each once (the log shows each as a `finding:` line). */
  findings: Finding[];
  onLine: (line: string) => void;
  onFinding: (finding: Finding) => void;
  /** The node's frame reuse switch and its budget for decoded video frames. */
  frameReuse: boolean;
  scratchBudget: ScratchBudget;
  /** Throws the first blocked attempt, missing asset or invalid page report when the render is strict. */
  failIfBlocked(strict: boolean): void;
  /** The render page of a project-relative composition on the session's project server. */
  pageUrl(composition: string): string;
  /** A URL the page named as a project-relative path, or null when it is not a project file. */
  projectPath(url: string): string | null;
  /** Starts one browser and loads `page` in it. */
  load(page: PageToLoad): Promise<LoadedBrowser>;
  /** Starts `count` spare browsers loading `page` now (at most 31); a spare's failure counts only if it is used. */
  preload(page: PageToLoad, count: number): void;
  /** Up to `count` spares, in the order they were started; the others are killed now, so their cores go to the capture. */
  takeSpares(count: number): Promise<LoadedBrowser>[];
  /** The capture killed every browser it was given (capture-chunks.ts): the session has none left to kill. */
  browsersGone(): void;
}

/** A page URL of the project server as a project-relative path, or null when it is not a project file. */
export function projectPathOf(projectDir: string, origin: string, url: string): string | null {
  if (!url.startsWith(`${origin}/`)) return null;
  const path = resolve(projectDir, decodeURIComponent(new URL(url).pathname).replace(/^\/+/, ""));
  return path.startsWith(resolve(projectDir) + sep) ? relative(projectDir, path).split(sep).join("/") : null;
}

/** A session as opened: `fail` and `close` are the caller's to call (withCaptureSession does both). */
export interface OpenSession extends CaptureSession {
  /** What a failure inside the session is thrown as: "render cancelled" after a cancel from outside; it stops the session. */
  fail(error: unknown): unknown;
  /** Ends it: browsers killed, sink and server stopped, scratch folder removed. */
  close(): Promise<void>;
}

/**
 * Opens a session, runs `use` with it, and always ends it: browsers killed, sink and server stopped, scratch
 * folder removed. A cancel from outside fails with "render cancelled" (and the line "render cancelled").
 */
export async function withCaptureSession<T>(input: SessionInput, use: (session: CaptureSession) => Promise<T>): Promise<T> {
  const session = await openCaptureSession(input);
  try {
    return await use(session);
  } catch (error) {
    throw session.fail(error);
  } finally {
    await session.close();
  }
}

/** Opens a session (see OpenSession); one that fails to open is ended before the failure is thrown. */
export async function openCaptureSession(input: SessionInput): Promise<OpenSession> {
  const projectDir = resolve(input.projectDir);
  input.signal.throwIfAborted();
  const findings: Finding[] = [];
  // The first blocked attempt, missing asset or invalid page report (one raised mid-capture too, a forged
  // seekFrame answer): a strict render fails on it.
  let blocked: Finding | undefined;
  const onLine = (line: string) => input.onLine?.(line);
  const onFinding = (finding: Finding) => {
    if (blocked === undefined && (finding.code === "request-blocked" || finding.code === "missing-asset" || finding.code === "page-report-invalid")) blocked = finding;
    // Every browser loads the page: report each finding once.
    if (findings.some((f) => f.message === finding.message)) return;
    // A missing file is reported by the page's request (with its referrer) and again by the node before it
    // decodes a video or mixes an audio track: once per path.
    if (finding.code === "missing-asset" && findings.some((f) => f.code === "missing-asset" && f.asset === finding.asset)) return;
    findings.push(finding);
    onLine(formatFindingLine(finding));
  };
  const binaries = input.binaries ?? (await resolveBinaries());
  const work = await makeScratchDir("render");
  // Everything the session starts stops on `signal`: a cancel from outside, or the render failing (a stage that
  // hung, an ffmpeg that broke), so no browser or ffmpeg outlives the render whichever way it ends.
  const stop = new AbortController();
  const signal = stop.signal;
  const tools = stageTools(binaries, input.bounds ?? DEFAULT_STAGE_BOUNDS, signal);
  const cancel = () => stop.abort(input.signal.reason);
  input.signal.addEventListener("abort", cancel, { once: true });
  if (input.signal.aborted) cancel();
  const browsers: CaptureBrowser[] = [];
  const killAll = () => browsers.forEach((b) => b.kill());
  signal.addEventListener("abort", killAll, { once: true });
  let server: Awaited<ReturnType<typeof serveProject>> | undefined;
  let spares: Promise<LoadedBrowser>[] = [];
  let ending = false;
  let sink: Awaited<ReturnType<typeof startNetworkSink>> | undefined;
  const fail = (error: unknown): unknown => {
    // The failure is reported once, by whoever reports the render's end (the Worker's log line "render failed:
    // <message>"); only a cancel is a line of the render's own.
    if (input.signal.aborted) onLine("render cancelled");
    if (!signal.aborted) stop.abort(error);
    return input.signal.aborted ? new Error("render cancelled") : error;
  };
  try {
    server = await serveProject(projectDir, join(work, "video-frames"));
    const sinkReport = limitBlockedAttempts(onFinding, onLine);
    // A blocked attempt names the composition the session loaded (the first page asked for).
    let composition = "";
    sink = await startNetworkSink((attempt) => sinkReport(blockedAttemptFinding(attempt, composition)));
    const { origin } = server;
    const sinkPort = sink.port;
    const pageUrl = server.pageUrl.bind(server);
    const load = async (page: PageToLoad): Promise<LoadedBrowser> => {
      const browser = await launchCaptureBrowser({
        chrome: binaries.chrome, preferBeginFrame: input.captureMode !== "screenshot", width: 1920, height: 1080, onLine,
        args: networkIsolationFlags({ allowOrigin: origin, sinkPort }),
      });
      browsers.push(browser);
      if (signal.aborted || ending) killAll();
      signal.throwIfAborted();
      const info = await loadComposition(browser, page.url, origin, { onLine, onFinding }, { bounded: tools, waitForTimeline: true, strict: page.strict, variables: page.variables });
      return { browser, info };
    };
    return {
      fail, close,
      projectDir, work, signal, tools, timeline: input.timeline ?? startTimeline(), findings, onLine, onFinding,
      frameReuse: input.frameReuse ?? true, scratchBudget: input.scratchBudget ?? DEFAULT_SCRATCH_BUDGET,
      failIfBlocked: (strict) => {
        if (strict && blocked !== undefined) throw strictFailure(blocked);
      },
      pageUrl: (file) => {
        composition ||= file;
        return pageUrl(file, "render");
      },
      projectPath: (url) => projectPathOf(projectDir, origin, url),
      load,
      preload: (page, count) => {
        spares = Array.from({ length: Math.min(31, Math.max(0, count)) }, () => {
          const launching = load(page);
          void ended(launching); // awaited where it is used; unused, its failure does not count
          return launching;
        });
      },
      takeSpares: (count) => {
        const ready = spares.splice(0, count);
        for (const spare of spares.splice(0)) {
          // A spare that failed to start is not used, so its failure does not count (see preload).
          void spare.then(({ browser }) => browser.kill(), (error: unknown) => logDebug("an unused spare browser had failed to start", error));
        }
        return ready;
      },
      browsersGone: () => {
        browsers.length = 0;
      },
    };
  } catch (error) {
    const failure = fail(error);
    await close();
    throw failure;
  }

  async function close(): Promise<void> {
    input.signal.removeEventListener("abort", cancel);
    // Browsers are killed, not closed: a render that ended early must not wait on a hung page, and a finished one
    // keeps nothing in them. A spare still starting is killed the moment it has started.
    ending = true;
    killAll();
    await Promise.allSettled(spares);
    signal.removeEventListener("abort", killAll);
    await sink?.close();
    await server?.close();
    await removeScratchDir(work);
  }
}
