// Chrome headless shell through @puppeteer/browsers, for machines @sparticuz/chromium has no binary for (macOS,
// Linux arm64): found in puppeteer's cache if already there, else downloaded into it once. The headless shell (not
// full Chrome) because beginFrame capture exists only there.
import { homedir } from "node:os";
import { join } from "node:path";
import {
  Browser,
  BrowserPlatform,
  computeExecutablePath,
  detectBrowserPlatform,
  getDownloadUrl,
  getInstalledBrowsers,
  getVersionComparator,
  install,
} from "@puppeteer/browsers";
// The build puppeteer-core was released against, so its CDP calls match the browser.
import { PUPPETEER_REVISIONS } from "puppeteer-core/internal/revisions.js";
import { isExecutable } from "./is-file.ts";

export const HEADLESS_SHELL_BUILD: string = PUPPETEER_REVISIONS["chrome-headless-shell"];

export interface HeadlessShellOptions {
  /** Where browsers are kept: PUPPETEER_CACHE_DIR, else puppeteer's own ~/.cache/puppeteer (shared with it). */
  cacheDir?: string | undefined;
  platform?: BrowserPlatform;
  /** A mirror of https://storage.googleapis.com/chrome-for-testing-public (PUPPETEER_CHROME_HEADLESS_SHELL_DOWNLOAD_BASE_URL). */
  baseUrl?: string | undefined;
  log?: (line: string) => void;
}


/** puppeteer's own cache (shared with it) when PUPPETEER_CACHE_DIR does not name another. */
const DEFAULT_CACHE_DIR = join(homedir(), ".cache", "puppeteer");

// One download at a time per folder: renders that start together share it instead of unpacking over each other.
const pending = new Map<string, Promise<string>>();

/** The executable of a Chrome headless shell: the pinned build, else the newest one installed, else the pinned build installed now. */
export function findOrInstallHeadlessShell(options: HeadlessShellOptions = {}): Promise<string> {
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const platform = options.platform ?? detectBrowserPlatform();
  if (!platform) {
    return Promise.reject(new Error(`no Chrome headless shell is built for ${process.platform} ${process.arch}: set CHROME_PATH to a Chromium headless shell`));
  }
  const key = `${cacheDir}\0${platform}`;
  const running = pending.get(key);
  if (running) return running;
  const found = (async () => {
    const browser = Browser.CHROMEHEADLESSSHELL;
    const pinned = computeExecutablePath({ browser, buildId: HEADLESS_SHELL_BUILD, cacheDir, platform });
    if (isExecutable(pinned)) return pinned;
    const installed = (await getInstalledBrowsers({ cacheDir }))
      .filter((b) => b.browser === browser && b.platform === platform && isExecutable(b.executablePath))
      .sort((a, b) => getVersionComparator(browser)(a.buildId, b.buildId))
      .at(-1);
    if (installed) return installed.executablePath;
    const log = options.log ?? ((line: string) => console.error(line));
    log(`installing Chrome headless shell ${HEADLESS_SHELL_BUILD} (${platform}) into ${cacheDir} (once)`);
    const request = { browser, buildId: HEADLESS_SHELL_BUILD, cacheDir, platform, ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) };
    try {
      return (await install(request)).executablePath;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `could not install Chrome headless shell ${HEADLESS_SHELL_BUILD} from ${getDownloadUrl(browser, platform, HEADLESS_SHELL_BUILD, options.baseUrl)}: ${reason}; ` +
          "set CHROME_PATH to a Chromium headless shell, or PUPPETEER_CHROME_HEADLESS_SHELL_DOWNLOAD_BASE_URL to a mirror",
      );
    }
  })();
  pending.set(key, found);
  // Settled, the next call looks at the folder again (a failed download is retried by the next render).
  const forget = () => void pending.delete(key);
  found.then(forget, forget);
  return found;
}
