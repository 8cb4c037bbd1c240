// Opens a project's composition exactly as a render does (same server, runtime, network isolation, request
// policy, inlining and seeking), sized to the composition's canvas, for snapshots and checks.
import type { CompositionInfo, StudioWindow } from "../../../page-runtime/api.ts";
import { launchCaptureBrowser, type CaptureBrowser } from "./launch-capture-browser.ts";
import { formatFindingLine, type Finding } from "../../../core/protocol/finding.ts";
import { blockedAttemptFinding, limitBlockedAttempts } from "./blocked-attempt.ts";
import { loadComposition } from "./load-composition.ts";
import { startNetworkSink } from "./network-sink.ts";
import { networkIsolationFlags } from "./network-policy.ts";
import { refuseOversizedFile, refuseOversizedInfo } from "../plan/refuse-oversized-composition.ts";
import { serveProject, type ProjectServer } from "./serve-project.ts";
import { DEFAULT_STAGE_BOUNDS, type StageBounds } from "../bounds/stage-bounds.ts";
import { seconds, withDeadline } from "../bounds/deadline.ts";
import { bounded } from "../bounds/bounded.ts";

export interface OpenComposition {
  capture: CaptureBrowser;
  server: ProjectServer;
  info: CompositionInfo;
  /** Shows time t (seconds) on every timeline, clip and video, as the renderer does before capturing a frame. */
  seek(t: number): Promise<void>;
  /** Where findings go (reported after loading too: late findings). */
  onFinding: (finding: Finding) => void;
  close(): Promise<void>;
}

export async function openComposition(options: {
  projectDir: string;
  chrome: string;
  composition?: string | undefined;
  /** beginFrame capture like a render (snapshots); checks measure layout and take plain screenshots. */
  preferBeginFrame: boolean;
  signal: AbortSignal;
  onLine: (line: string) => void;
  /** Findings as data (a check collects them); by default each is logged as a `finding:` line. */
  onFinding?: ((finding: Finding) => void) | undefined;
  /** Page-load, timeline and seek bounds (default: DEFAULT_STAGE_BOUNDS; the node's from its configuration). */
  bounds?: StageBounds | undefined;
  /** Runs on the fresh page before the composition loads (a check listens to requests and the console). */
  beforeLoad?: ((capture: CaptureBrowser, origin: string) => void) | undefined;
}): Promise<OpenComposition> {
  const bounds = options.bounds ?? DEFAULT_STAGE_BOUNDS;
  const composition = options.composition ?? "index.html";
  await refuseOversizedFile(options.projectDir, composition);
  const server = await serveProject(options.projectDir);
  const onFinding = options.onFinding ?? ((finding: Finding) => options.onLine(formatFindingLine(finding)));
  const sinkReport = limitBlockedAttempts(onFinding, options.onLine);
  const sink = await startNetworkSink((attempt) => sinkReport(blockedAttemptFinding(attempt, composition)));
  let capture: CaptureBrowser | null = null;
  const kill = () => capture?.kill();
  options.signal.addEventListener("abort", kill, { once: true });
  const close = async () => {
    options.signal.removeEventListener("abort", kill);
    if (options.signal.aborted) capture?.kill();
    else await capture?.close();
    await sink.close();
    await server.close();
  };
  try {
    capture = await launchCaptureBrowser({
      chrome: options.chrome, preferBeginFrame: options.preferBeginFrame, width: 1920, height: 1080, onLine: options.onLine,
      args: networkIsolationFlags({ allowOrigin: server.origin, sinkPort: sink.port }),
    });
    options.signal.throwIfAborted();
    options.beforeLoad?.(capture, server.origin);
    const info = await loadComposition(capture, server.pageUrl(composition, "render"), server.origin, { onLine: options.onLine, onFinding }, { bounded: bounded(bounds) });
    refuseOversizedInfo(info, composition);
    await capture.session.send("Emulation.setDeviceMetricsOverride", { width: info.width, height: info.height, deviceScaleFactor: 1, mobile: false });
    const page = capture.page;
    return {
      capture,
      server,
      info,
      onFinding,
      seek: (t) =>
        withDeadline(
          page.evaluate((time: number) => (window as unknown as StudioWindow).__studio.seek(time), t),
          bounds.frameMs,
          () => `seeking to ${t.toFixed(3)} s did not finish in ${seconds(bounds.frameMs)}`,
        ),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
