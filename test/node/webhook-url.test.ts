// Which URLs a webhook may call (worker/webhooks/webhook-url.ts) and when a failed delivery is retried (backoff.ts).
import { describe, expect, it } from "vitest";
import { backoffSchedule, DEFAULT_BACKOFF_SECONDS, retryDelayMs } from "../../worker/webhooks/backoff.ts";
import { isPrivateHost, webhookUrlProblem } from "../../worker/webhooks/webhook-url.ts";

const production = { api: "https://studio.example.com", content: "https://studio-content.example.net" };
const local = { api: "http://127.0.0.1:8787", content: "http://localhost:8787" };

describe("webhookUrlProblem", () => {
  it("accepts public http and https URLs", () => {
    expect(webhookUrlProblem("https://hooks.example.org/studio?x=1", production)).toBeNull();
    expect(webhookUrlProblem("http://203.0.113.9:8080/hook", production)).toBeNull();
  });

  it("refuses other schemes, malformed URLs, credentials and very long URLs", () => {
    expect(webhookUrlProblem("ftp://example.org/x", production)).toBe("webhook URL must be http or https");
    expect(webhookUrlProblem("javascript:alert(1)", production)).toBe("webhook URL must be http or https");
    expect(webhookUrlProblem("/relative", production)).toBe("webhook URL is not a valid absolute URL");
    expect(webhookUrlProblem("https://user:pw@example.org/", production)).toMatch(/user name or password/);
    expect(webhookUrlProblem(`https://example.org/${"a".repeat(2000)}`, production)).toMatch(/longer than/);
  });

  it("refuses the studio itself, on either origin, in any spelling of loopback on its port", () => {
    expect(webhookUrlProblem("https://studio.example.com/api/projects", production)).toBe("webhook URL points at the studio itself");
    expect(webhookUrlProblem("https://STUDIO-content.example.net./x", production)).not.toBeNull();
    expect(webhookUrlProblem("http://127.0.0.1:8787/api/health", local)).toBe("webhook URL points at the studio itself");
    expect(webhookUrlProblem("http://localhost:8787/", local)).toBe("webhook URL points at the studio itself");
    expect(webhookUrlProblem("http://[::1]:8787/", local)).toBe("webhook URL points at the studio itself");
    expect(webhookUrlProblem("http://127.0.0.2:8787/", local)).toBe("webhook URL points at the studio itself");
  });

  it("in production refuses private, loopback, link-local and internal addresses", () => {
    for (const url of [
      "http://127.0.0.1:9000/", "http://10.1.2.3/", "http://172.16.0.1/", "http://192.168.1.1/", "http://169.254.169.254/latest",
      "http://100.64.0.1/", "http://0.0.0.0/", "http://[::1]/", "http://[fd00::1]/", "http://[fe80::1]/", "http://[::ffff:127.0.0.1]/",
      "http://localhost:3000/", "http://printer.local/", "http://metadata.google.internal/", "http://intranet/",
      "http://2130706433/", "http://0x7f.1/",
    ]) {
      expect(webhookUrlProblem(url, production), url).toBe("webhook URL points at a private or internal address");
    }
  });

  it("allows loopback receivers when the studio itself runs on loopback (development)", () => {
    expect(webhookUrlProblem("http://127.0.0.1:9000/hook", local)).toBeNull();
    expect(isPrivateHost("127.0.0.1")).toBe(true);
    expect(isPrivateHost("example.org")).toBe(false);
  });
});

describe("backoff", () => {
  it("waits the schedule's delays in order, then gives up", () => {
    expect(retryDelayMs(DEFAULT_BACKOFF_SECONDS, 1)).toBe(5000);
    expect(retryDelayMs(DEFAULT_BACKOFF_SECONDS, 6)).toBe(7_200_000);
    expect(retryDelayMs(DEFAULT_BACKOFF_SECONDS, 7)).toBeNull();
  });

  it("reads WEBHOOK_BACKOFF_SECONDS and falls back to the default when malformed", () => {
    expect(backoffSchedule("1, 2")).toEqual([1, 2]);
    expect(backoffSchedule(undefined)).toBe(DEFAULT_BACKOFF_SECONDS);
    expect(backoffSchedule("1,x")).toBe(DEFAULT_BACKOFF_SECONDS);
    expect(backoffSchedule("-1")).toBe(DEFAULT_BACKOFF_SECONDS);
  });
});
