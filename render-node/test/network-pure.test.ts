// The findings of blocked network attempts, read from Chromium's own messages (as Chromium 153 writes them), the
// proxy's request lines and the WebRTC probe; the log limit; the switches' bypass list. No browser here: the real
// thing is in network-isolation.test.ts.
import { describe, expect, it } from "vitest";
import { formatFindingLine, type Finding } from "../../core/protocol/finding.ts";
import { blockedAttemptFinding, blockedAttemptFromBrowserMessage, CONNECT_CHANNEL, isPolicyRefusalMessage, limitBlockedAttempts } from "../src/browser/blocked-attempt.ts";
import { attemptFromProxyRequestLine } from "../src/browser/network-sink.ts";
import { networkIsolationFlags } from "../src/browser/network-policy.ts";
import { webrtcTarget } from "../src/browser/watch-network-attempts.ts";

describe("blocked attempt findings", () => {
  it("name the channel and the target, as data and as one log line", () => {
    const finding = blockedAttemptFinding({ channel: "websocket", target: "ws://example.com/x" });
    expect(finding).toMatchObject({ code: "request-blocked", severity: "warning", file: "index.html" });
    expect(formatFindingLine(finding)).toBe("finding: blocked network access: websocket to ws://example.com/x (compositions cannot reach the network)");
  });

  it("keep a long target (a URL carrying what the page sees) to 200 characters, on one line", () => {
    const finding = blockedAttemptFinding({ channel: "image", target: `http://x.test/?d=${"a".repeat(500)}\nforged line` });
    expect(finding.message).not.toContain("\n");
    expect(finding.message).toContain(`http://x.test/?d=${"a".repeat(183)}… (compositions`);
  });

  it("come from Chromium's CSP and sandbox messages", () => {
    const csp = (what: string, directive = "connect-src 'self' data: blob:") =>
      `${what} violates the following Content Security Policy directive: "${directive}". The action has been blocked.`;
    expect(blockedAttemptFromBrowserMessage(csp("Connecting to 'ws://127.0.0.1:9/ws'"))).toEqual({ channel: "websocket", target: "ws://127.0.0.1:9/ws" });
    expect(blockedAttemptFromBrowserMessage(csp("Connecting to 'http://127.0.0.1:9/f'"))).toEqual({ channel: CONNECT_CHANNEL, target: "http://127.0.0.1:9/f" });
    expect(blockedAttemptFromBrowserMessage(csp("Loading the image 'http://a.test/i.png'", "default-src 'self'"))).toEqual({ channel: "image", target: "http://a.test/i.png" });
    expect(blockedAttemptFromBrowserMessage(csp("Loading media from  'http://a.test/a.mp3'", "default-src 'self'"))).toEqual({ channel: "media", target: "http://a.test/a.mp3" });
    expect(blockedAttemptFromBrowserMessage(csp("Framing 'http://127.0.0.1:9/'", "frame-src 'self'"))).toEqual({ channel: "iframe", target: "http://127.0.0.1:9/" });
    expect(blockedAttemptFromBrowserMessage(csp("Creating a worker from 'blob:http://127.0.0.1:8/x'", "worker-src 'none'"))).toEqual({ channel: "worker", target: "blob:http://127.0.0.1:8/x" });
    expect(blockedAttemptFromBrowserMessage("Blocked form submission to 'http://127.0.0.1:9/form' because the form's frame is sandboxed and the 'allow-forms' permission is not set.")).toEqual({ channel: "form submission", target: "http://127.0.0.1:9/form" });
    expect(blockedAttemptFromBrowserMessage("Blocked opening 'http://127.0.0.1:9/p' in a new window because the request was made in a sandboxed frame whose 'allow-popups' permission is not set.")).toEqual({ channel: "popup (window.open)", target: "http://127.0.0.1:9/p" });
    // Nothing went out: a refused <base href>, a warning, any other message.
    expect(blockedAttemptFromBrowserMessage(csp("Setting the document's base URI to 'http://a.test/'", "base-uri 'self'"))).toBeNull();
    expect(blockedAttemptFromBrowserMessage("An iframe which has both allow-scripts and allow-same-origin for its sandbox attribute can escape its sandboxing.")).toBeNull();
    expect(blockedAttemptFromBrowserMessage("Uncaught TypeError: 'x' is not a function")).toBeNull();
  });

  it("are not repeated as console errors", () => {
    expect(isPolicyRefusalMessage("Fetch API cannot load http://a.test/. Refused to connect because it violates the document's Content Security Policy.")).toBe(true);
    expect(isPolicyRefusalMessage("Uncaught ReferenceError: gsap is not defined")).toBe(false);
  });

  it("come from the proxy's request line and the WebRTC probe", () => {
    expect(attemptFromProxyRequestLine("CONNECT 127.0.0.1:3478 HTTP/1.1")).toEqual({ channel: "connection", target: "127.0.0.1:3478" });
    expect(attemptFromProxyRequestLine("GET http://a.test/x?y HTTP/1.1")).toEqual({ channel: "GET request", target: "http://a.test/x?y" });
    expect(attemptFromProxyRequestLine("\u0016\u0003\u0001 binary")).toBeNull();
    expect(webrtcTarget(JSON.stringify(["stun:127.0.0.1:3478", "turn:a.test?transport=tcp"]))).toBe("stun:127.0.0.1:3478,turn:a.test?transport=tcp");
    expect(webrtcTarget("[]")).toBe("(no ICE server)");
    // The page can call the probe's binding itself: what the probe would not send is named as unreadable.
    for (const forged of ["{not json", JSON.stringify(["x".repeat(20_000)]), JSON.stringify({ urls: "stun:a" }), 42]) {
      expect(webrtcTarget(forged)).toBe("(an unreadable ICE server list)");
    }
  });

  it("are reported once each, and at most 25 per page, then one line saying the rest are not listed", () => {
    const found: Finding[] = [];
    const lines: string[] = [];
    const report = limitBlockedAttempts((finding) => found.push(finding), (line) => lines.push(line));
    const other: Finding = { code: "font-fallback", severity: "warning", file: "index.html", message: "font fallback: x" };
    report(other);
    for (let i = 0; i < 40; i++) report(blockedAttemptFinding({ channel: "image", target: `http://a.test/${i}` }));
    report(blockedAttemptFinding({ channel: "image", target: "http://a.test/0" }));
    expect(found[0]).toBe(other);
    expect(found.filter((f) => f.code === "request-blocked")).toHaveLength(25);
    expect(lines).toEqual(["25 blocked network attempts listed; further ones are blocked but not listed"]);
  });
});

describe("the Chromium switches", () => {
  it("bypass the dead proxy for the render's own server only; loopback is taken out of the implicit bypass", () => {
    const flags = networkIsolationFlags({ allowOrigin: "http://127.0.0.1:41234", sinkPort: 40000 });
    expect(flags).toContain("--proxy-server=http://127.0.0.1:40000");
    expect(flags).toContain("--proxy-bypass-list=<-loopback>;127.0.0.1:41234");
    expect(networkIsolationFlags({ sinkPort: 40000 })).toContain("--proxy-bypass-list=<-loopback>");
    expect(() => networkIsolationFlags({ allowOrigin: "http://localhost:41234", sinkPort: 40000 })).toThrow(/127\.0\.0\.1/);
  });
});
