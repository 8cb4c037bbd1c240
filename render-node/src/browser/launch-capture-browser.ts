// Starts one headless-shell Chromium with a page ready for frame capture, preferring beginFrame.
import puppeteer from "puppeteer-core";
import type { Browser, CDPSession, Page } from "puppeteer-core";
import { chromeDyingWithNode } from "../system/child-lifetime.ts";
import { makeScratchDir, removeWhenExited } from "../system/scratch-dirs.ts";
import { withDeadline } from "../bounds/deadline.ts";
import { logDebug } from "../system/debug-log.ts";

export type CaptureMode = "beginFrame" | "screenshot";

export interface CaptureBrowser {
  browser: Browser;
  page: Page;
  session: CDPSession;
  mode: CaptureMode;
  pid: number | undefined;
  /** SIGKILLs the browser's whole process group at once (cancel path). */
  kill(): void;
  close(): Promise<void>;
}

// This machine's network is closed, and nothing may reach out: no background services, no GPU.
export const BASE_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
  "--hide-scrollbars",
  "--mute-audio",
  "--font-render-hinting=none",
  // Compositing stays software on the CPU (SwiftShader's emulated GL compositor is 3x slower); WebGL canvases draw
  // on SwiftShader through ANGLE, as in HyperFrames' software GPU mode, instead of getting no context at all.
  "--disable-gpu-compositing",
  "--use-gl=angle",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--ignore-gpu-blocklist",
];

export const BEGIN_FRAME_FLAGS = [
  "--deterministic-mode",
  "--enable-begin-frame-control",
  "--run-all-compositor-stages-before-draw",
  "--disable-threaded-animation",
  "--disable-new-content-rendering-timeout",
  "--disable-checker-imaging",
];

// A capture browser's own: its profile lives and dies with it, so nothing in it is worth writing to disk. Off the
// record, Chromium keeps the HTTP cache, cookies, storage and its GPU caches in memory and creates none of the
// files and databases of a fresh profile (40–60 ms of CPU per browser start and page load, bench/README.md).
export const CAPTURE_PROFILE_FLAGS = ["--incognito"];

const PROBE_TIMEOUT_MS = 5000;

// Chromium dies with the node (child-lifetime.ts), and its profile and temp files live in a scratch folder that
// goes when the browser exits, or at the next node start if the node was killed.
async function start(chrome: string, beginFrame: boolean, extraArgs: readonly string[]): Promise<Browser> {
  const profile = await makeScratchDir("chrome");
  let browser: Browser | undefined;
  try {
    browser = await puppeteer.launch({
      ...chromeDyingWithNode(chrome, { TMPDIR: profile }),
      userDataDir: profile,
      headless: "shell",
      args: [...BASE_FLAGS, ...CAPTURE_PROFILE_FLAGS, ...(beginFrame ? BEGIN_FRAME_FLAGS : []), ...extraArgs],
      defaultViewport: null,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      protocolTimeout: 60_000,
      // No start-up tab: puppeteer would open about:blank in a renderer process of its own and wait for it, and the
      // capture never uses it (its page is the beginFrame target, or newPage() in screenshot mode).
      ignoreDefaultArgs: ["about:blank"],
      waitForInitialPage: false,
    });
    return browser;
  } finally {
    // A launch that failed leaves no browser: the folder goes now.
    await removeWhenExited(profile, browser?.process());
  }
}

function wrap(browser: Browser, page: Page, session: CDPSession, mode: CaptureMode): CaptureBrowser {
  const pid = browser.process()?.pid;
  let killed = false;
  return {
    browser,
    page,
    session,
    mode,
    pid,
    kill() {
      // Once only: the group's ids may be reused after it is gone.
      if (pid === undefined || killed) return;
      killed = true;
      // puppeteer starts Chromium detached, in its own process group: take the renderers down with it.
      try {
        process.kill(-pid, "SIGKILL");
      } catch (groupError) {
        logDebug(`chromium ${pid}: no process group to kill; killing the process alone`, groupError);
        try {
          process.kill(pid, "SIGKILL");
        } catch (error) {
          // Already gone: nothing left to stop.
          logDebug(`chromium ${pid}: already gone`, error);
        }
      }
    },
    async close() {
      // A browser that will not close (a hung page, a dead pipe) is killed instead: closing is only the polite way.
      await withDeadline(browser.close(), 5000, "browser close timed out after 5000 ms").catch((error: unknown) => {
        logDebug("browser close failed; killing it", error);
        this.kill();
      });
    },
  };
}

// A beginFrame-controlled page; throws when this Chromium cannot drive frames (e.g. new headless, which has no
// HeadlessExperimental domain). The probe draws one frame without taking its image: the command and a drawn frame
// are what tell, and a 1920x1080 JPEG of about:blank cost each browser start some 80 ms of CPU for nothing.
async function openBeginFramePage(browser: Browser, width: number, height: number): Promise<{ page: Page; session: CDPSession }> {
  const browserSession = await browser.target().createCDPSession();
  const { targetId } = await browserSession.send("Target.createTarget", {
    url: "about:blank",
    enableBeginFrameControl: true,
    width,
    height,
  });
  const target = await browser.waitForTarget((t) => (t as unknown as { _targetId: string })._targetId === targetId, { timeout: 10_000 });
  const page = await target.page();
  if (!page) throw new Error("beginFrame target has no page");
  const session = await page.createCDPSession();
  await withDeadline(
    session.send("HeadlessExperimental.beginFrame", { interval: 33, noDisplayUpdates: false }),
    PROBE_TIMEOUT_MS,
    `beginFrame probe timed out after ${PROBE_TIMEOUT_MS} ms`,
  );
  return { page, session };
}

/** Launches Chromium; probes beginFrame and falls back to Page.captureScreenshot in a plain browser when it fails. */
export async function launchCaptureBrowser(options: {
  chrome: string;
  preferBeginFrame: boolean;
  width: number;
  height: number;
  onLine: (line: string) => void;
  /** More Chromium switches: a composition's browser gets networkIsolationFlags() (network-policy.ts). */
  args?: readonly string[] | undefined;
}): Promise<CaptureBrowser> {
  const extraArgs = options.args ?? [];
  if (options.preferBeginFrame) {
    const browser = await start(options.chrome, true, extraArgs);
    try {
      const { page, session } = await openBeginFramePage(browser, options.width, options.height);
      return wrap(browser, page, session, "beginFrame");
    } catch (error) {
      options.onLine(`beginFrame unavailable (${error instanceof Error ? error.message : String(error)}); falling back to screenshots`);
      const pid = browser.process()?.pid;
      await withDeadline(browser.close(), 5000, "browser close timed out after 5000 ms").catch((error: unknown) => {
        logDebug("the beginFrame browser did not close; killing it", error);
        if (pid !== undefined) process.kill(pid, "SIGKILL");
      });
    }
  }
  const browser = await start(options.chrome, false, extraArgs);
  const page = await browser.newPage();
  const session = await page.createCDPSession();
  return wrap(browser, page, session, "screenshot");
}
