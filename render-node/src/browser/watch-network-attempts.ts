// Hears what a capture page tried that its CSP, sandbox or Chromium's network policy refused, for the log and
// check's findings. Observation only: the refusals themselves happen in network-policy.ts's layers. Everything is
// set up once before the composition loads; nothing runs per frame.
//   - CSP and sandbox refusals: Chromium reports them through CDP's Log domain (source "security"), which page
//     scripts cannot write to.
//   - WebRTC: refused by switches, which report nothing, so a probe wraps RTCPeerConnection in every document
//     (about:blank frames included) and calls an exposed function (a CDP binding) with the ICE servers asked for.
//     A page can fool the probe: a forged call only adds a line; a peer connection hidden from it hides only the
//     report, the switches still apply.
//   - Popups: a page target opened by this page is reported and closed (the sandbox should not let one open).
import type { Protocol } from "puppeteer-core";
import * as z from "zod";
import { PAGE_REPORT_LIMITS } from "../../../core/protocol/page-report.ts";
import { blockedAttemptFromBrowserMessage, type BlockedAttempt } from "./blocked-attempt.ts";
import type { CaptureBrowser } from "./launch-capture-browser.ts";
import { logDebug } from "../system/debug-log.ts";

const BINDING = "__studioNetworkAttempt";

// Runs before any page script in every document of the page (CDP Page.addScriptToEvaluateOnNewDocument).
const WEBRTC_PROBE = `(() => {
  const send = globalThis.${BINDING};
  if (typeof send !== "function") return;
  const servers = (config) => {
    const urls = [];
    try {
      for (const server of (config && config.iceServers) || []) {
        const u = server && server.urls;
        if (typeof u === "string") urls.push(u);
        else if (u) for (const one of u) urls.push(String(one));
      }
    } catch (error) {
      // A configuration the page made unreadable (a throwing getter): the attempt is still reported, with the
      // servers read so far. Said in the page's own console only; the node hears the attempt either way.
      console.debug("studio: ICE servers not readable", error);
    }
    return urls;
  };
  const tell = (config) => {
    try {
      send(JSON.stringify(servers(config)));
    } catch (error) {
      // The binding gone (the page navigating away): nothing left to tell; the switches refused the connection anyway.
      console.debug("studio: WebRTC attempt not reported", error);
    }
  };
  for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection"]) {
    const Original = globalThis[name];
    if (typeof Original !== "function" || Original.__studioProbe) continue;
    const setConfiguration = Original.prototype.setConfiguration;
    if (typeof setConfiguration === "function") {
      Original.prototype.setConfiguration = function (config) { tell(config); return setConfiguration.apply(this, arguments); };
    }
    const Probe = new Proxy(Original, { construct(target, args, newTarget) { tell(args[0]); return Reflect.construct(target, args, newTarget); } });
    Object.defineProperty(Original, "__studioProbe", { value: true });
    globalThis[name] = Probe;
  }
})();`;

/** The longest probe payload read: a page can call the binding itself, with anything. */
const MAX_PROBE_PAYLOAD = 16 * 1024;
const UNREADABLE = "(an unreadable ICE server list)";
/** The probe's list: ICE server URLs as strings, bounded (core/protocol/page-report.ts's bounds for page strings). */
const IceServerUrls = z.array(z.string().max(PAGE_REPORT_LIMITS.urlLength)).max(50);

/**
 * The ICE servers a probe call names, as one target: "stun:127.0.0.1:3478,turn:…", "(no ICE server)", or, for a
 * payload the probe would not send (the page called the binding itself), "(an unreadable ICE server list)": the
 * attempt is reported all the same.
 */
export function webrtcTarget(payload: unknown): string {
  if (typeof payload !== "string" || payload.length > MAX_PROBE_PAYLOAD) return UNREADABLE;
  let urls: unknown;
  try {
    urls = JSON.parse(payload);
  } catch (error) {
    if (error instanceof SyntaxError) return UNREADABLE;
    throw error;
  }
  const list = IceServerUrls.safeParse(Array.isArray(urls) ? urls.filter((u) => typeof u === "string") : urls);
  if (!list.success) return UNREADABLE;
  return list.data.length ? list.data.join(",") : "(no ICE server)";
}

export async function watchNetworkAttempts(capture: CaptureBrowser, report: (attempt: BlockedAttempt) => void): Promise<void> {
  const { browser, page, session } = capture;
  session.on("Log.entryAdded", ({ entry }: Protocol.Log.EntryAddedEvent) => {
    if (entry.source !== "security" || entry.level !== "error") return;
    const attempt = blockedAttemptFromBrowserMessage(entry.text);
    if (attempt) report(attempt);
  });
  browser.on("targetcreated", (target) => {
    if (target.type() !== "page" || target.opener() !== page.target()) return;
    report({ channel: "popup (window.open)", target: target.url() });
    void target
      .page()
      .then((popup) => popup?.close())
      // A popup that closed itself (or its browser gone) needs no closing; it was reported above.
      .catch((error: unknown) => logDebug("a popup could not be closed", error));
  });
  await session.send("Log.enable");
  await page.exposeFunction(BINDING, (payload: unknown) => report({ channel: "webrtc", target: webrtcTarget(payload) }));
  await page.evaluateOnNewDocument(WEBRTC_PROBE);
}
