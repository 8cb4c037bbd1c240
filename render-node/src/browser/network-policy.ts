// What a composition's page may reach: its own render's project server and the GSAP the node serves, nothing else.
// Three layers, each stopping what it can on its own (render-node/README.md, "Network isolation", lists which
// layer stops which channel):
//   1. COMPOSITION_CSP, sent by the project server with every response: the page itself refuses other origins.
//   2. networkIsolationFlags(): Chromium sends everything but the render's own server to a dead proxy, resolves no
//      host name, and keeps WebRTC off UDP, so what slips past the page's CSP finds no way out of the browser.
//   3. Request interception (intercept-requests.ts) answers GSAP CDN URLs from the npm package and refuses the rest.
// Pure: no I/O here.
import { GSAP_CDN_PREFIXES } from "../../../core/composition/match-gsap-url.ts";

// GSAP's CDN URLs are allowed through CSP only so interception can answer them from the npm package; they never
// reach the network (the proxy and the resolver below would refuse them). No scheme: "//cdn…" resolves to http:
// on our http page, and a scheme-less source matches http and https. The same prefixes the one GSAP URL recogniser
// accepts, so lint, interception and CSP agree on a script.
const GSAP_SCRIPT_SOURCES = GSAP_CDN_PREFIXES;

const CSP_DIRECTIVES: Array<[string, ...string[]]> = [
  ["default-src", "'self'", "data:", "blob:"],
  // Compositions are pages written by hand or by agents: inline scripts, eval (GSAP plugins, templates) and styles.
  ["script-src", "'self'", "'unsafe-inline'", "'unsafe-eval'", "data:", "blob:", ...GSAP_SCRIPT_SOURCES],
  ["style-src", "'self'", "'unsafe-inline'", "data:", "blob:"],
  // The runtime fetches sub-compositions from its own server; fetch, XHR, WebSocket, EventSource and beacons to
  // any other origin (other loopback ports included: 'self' is host and port) are refused.
  ["connect-src", "'self'", "data:", "blob:"],
  // Workers and service workers could run code outside the page's interception.
  ["worker-src", "'none'"],
  ["frame-src", "'self'"],
  ["object-src", "'none'"],
  ["form-action", "'none'"],
  ["base-uri", "'self'"],
  // A sandboxed document: no forms, popups, top navigation of frames, modal dialogs (which would hang a capture),
  // downloads or pointer lock. Same-origin stays, so the runtime's fetches and the page's storage still work.
  ["sandbox", "allow-scripts", "allow-same-origin"],
];

/** The Content-Security-Policy header of every response of a render's project server. */
export const COMPOSITION_CSP = CSP_DIRECTIVES.map((directive) => directive.join(" ")).join("; ");

export interface NetworkIsolation {
  /** The render's project server, e.g. http://127.0.0.1:41234: the one address the browser may connect to. */
  allowOrigin?: string | undefined;
  /** A loopback port that refuses every proxy request (network-sink.ts); everything else is sent there. */
  sinkPort: number;
}

/** Chromium switches that leave the browser no way to the network but the render's own server. */
export function networkIsolationFlags(isolation: NetworkIsolation): string[] {
  const allowed = isolation.allowOrigin ? new URL(isolation.allowOrigin) : null;
  if (allowed && (allowed.hostname !== "127.0.0.1" || !allowed.port)) {
    throw new Error(`the project server must listen on 127.0.0.1 with an explicit port; got ${isolation.allowOrigin}`);
  }
  return [
    // Every request, WebSocket and WebRTC TCP connection goes to the sink, which refuses it. "<-loopback>" takes
    // loopback out of Chromium's implicit bypass list (the studio, previews, the node, the DevTools port are all on
    // loopback); only the render's own host:port is bypassed.
    `--proxy-server=http://127.0.0.1:${isolation.sinkPort}`,
    `--proxy-bypass-list=<-loopback>${allowed ? `;${allowed.host}` : ""}`,
    // WebRTC may use no UDP that does not go through the proxy, i.e. none: no STUN, TURN over UDP, host candidates
    // or mDNS. (TURN over TCP goes to the proxy and is refused there.)
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    // No host name resolves (no DNS prefetch, preconnect or lookup can leak a name); the proxy's and the project
    // server's IP literal are left alone.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
  ];
}
