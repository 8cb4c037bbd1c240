// One finding for every attempt of a composition to reach outside its project, whichever layer stopped it (the
// page's CSP or sandbox, request interception, the dead proxy, the WebRTC probe): the render log, the snapshot log
// and check's findings all show it. Pure.
import { makeFinding, type Finding } from "../../../core/protocol/finding.ts";

export interface BlockedAttempt {
  /** How the page tried: "websocket", "image", "webrtc", "navigation", CONNECT_CHANNEL, ... */
  channel: string;
  /** Where to: a URL, a host:port, or a WebRTC server URL. */
  target: string;
}

/** The channel of a connection CSP refused that was not a WebSocket. */
export const CONNECT_CHANNEL = "request (fetch, XHR, EventSource, beacon, ping or WebTransport)";

const MAX_TARGET = 200;

/** A composition may try a fresh URL on every frame: the log keeps this many distinct attempts per page. */
export const MAX_BLOCKED_LINES = 25;

/** `blocked network access: websocket to ws://example.com/x (compositions cannot reach the network)`. */
export function blockedAttemptFinding({ channel, target }: BlockedAttempt, file = "index.html"): Finding {
  const clean = target.replace(/[\s\u0000-\u001f]+/g, "");
  const shown = clean.length > MAX_TARGET ? `${clean.slice(0, MAX_TARGET)}…` : clean;
  return makeFinding("request-blocked", file, `blocked network access: ${channel} to ${shown} (compositions cannot reach the network)`, {
    fixHint: "put the file into the project (assets/) and reference it by a relative path; a composition cannot use the network",
  });
}

// Chromium's wording of what CSP refused, by the kind of load it names.
const CSP_KINDS: Array<[RegExp, string]> = [
  [/^Loading the image /, "image"],
  [/^Loading the script /, "script"],
  [/^Loading the stylesheet /, "stylesheet"],
  [/^Loading the font /, "font"],
  [/^Loading media from /, "media"],
  [/^Loading the manifest /, "manifest"],
  [/^Framing /, "iframe"],
  [/^Creating a worker from /, "worker"],
  [/^Fetching content from /, "prefetch"],
  [/^Submitting form data to /, "form submission"],
];

/**
 * The attempt in one of Chromium's console messages about a load refused by the page's CSP or sandbox (they come
 * from the browser through CDP's Log domain, which page scripts cannot write to), or null.
 */
export function blockedAttemptFromBrowserMessage(text: string): BlockedAttempt | null {
  const target = /'([^']+)'/.exec(text)?.[1];
  if (!target) return null;
  if (/^Blocked form submission to /.test(text)) return { channel: "form submission", target };
  if (/^Blocked opening /.test(text) && /new window/.test(text)) return { channel: "popup (window.open)", target };
  if (!/violates the following Content Security Policy directive/.test(text)) return null;
  if (/^(Connecting to|Refused to connect to) /.test(text)) {
    // CSP says only "connecting": fetch, XHR, EventSource, beacon, <a ping> and WebTransport read the same.
    return { channel: /^wss?:/i.test(target) ? "websocket" : CONNECT_CHANNEL, target };
  }
  // Not a load (e.g. a <base href> to another origin): nothing went out, nothing to report.
  if (/^Setting the document's base URI /.test(text)) return null;
  const kind = CSP_KINDS.find(([pattern]) => pattern.test(text))?.[1] ?? "request";
  return { channel: kind, target };
}

/**
 * Whether a console message is Chromium's report of such a refusal (or the page-side echo of one, "Fetch API
 * cannot load … Content Security Policy"): the watcher reports those as blocked attempts, not as console errors.
 */
export function isPolicyRefusalMessage(text: string): boolean {
  return /Content Security Policy/.test(text) || /sandboxed and the 'allow-/.test(text) || /in a sandboxed frame whose 'allow-/.test(text);
}

const RESOURCE_CHANNELS: Record<string, string> = {
  xhr: "XHR",
  fetch: "fetch",
  eventsource: "EventSource",
  websocket: "websocket",
  ping: "beacon/ping",
  prefetch: "prefetch",
  image: "image",
  media: "media",
  texttrack: "media",
  font: "font",
  script: "script",
  stylesheet: "stylesheet",
  manifest: "manifest",
};

/** The channel of a request that interception refused, from puppeteer's resource type. */
export function channelOfRequest(resourceType: string, topLevelNavigation: boolean): string {
  if (resourceType === "document") return topLevelNavigation ? "navigation" : "iframe";
  return RESOURCE_CHANNELS[resourceType] ?? "request";
}

/**
 * Passes findings on, but each blocked attempt only once, and at most MAX_BLOCKED_LINES of them (then one log line
 * saying the rest are not listed): a composition that tries on every frame must not flood the log.
 */
export function limitBlockedAttempts(onFinding: (finding: Finding) => void, onLine: (line: string) => void, max = MAX_BLOCKED_LINES): (finding: Finding) => void {
  const seen = new Set<string>();
  return (finding) => {
    if (finding.code !== "request-blocked") return onFinding(finding);
    if (seen.has(finding.message) || seen.size > max) return;
    seen.add(finding.message);
    if (seen.size > max) onLine(`${max} blocked network attempts listed; further ones are blocked but not listed`);
    else onFinding(finding);
  };
}
