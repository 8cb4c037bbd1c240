// Which URLs a webhook may call (worker/webhooks/webhook-url.ts, its address helpers and WEBHOOK_ALLOWED_HOSTS) and when a failed delivery is retried (backoff.ts).
import { describe, expect, it } from "vitest";
import { parseSetting } from "../../worker/config/parse-config.ts";
import { DEFAULT_BACKOFF_SECONDS, retryDelayMs } from "../../worker/webhooks/backoff.ts";
import { addressClassOf } from "../../worker/net/address-class.ts";
import { parseIpv6 } from "../../worker/net/ip-address.ts";
import { webhookUrlProblem } from "../../worker/webhooks/webhook-url.ts";

const production = { api: "https://studio.example.com", content: "https://studio-content.example.net" };
const local = { api: "http://127.0.0.1:8787", content: "http://localhost:8787" };

const REFUSED = /^webhook URL points at an? [a-zA-Z() -]+ (address|host name) \(.+\), not the public internet; the studio's operator may allow it in WEBHOOK_ALLOWED_HOSTS$/;

describe("webhookUrlProblem", () => {
  it("accepts public http and https URLs", () => {
    expect(webhookUrlProblem("https://hooks.example.org/studio?x=1", production)).toBeNull();
    expect(webhookUrlProblem("http://93.184.215.14:8080/hook", production)).toBeNull();
    expect(webhookUrlProblem("http://[2606:4700:4700::1111]/hook", production)).toBeNull();
    expect(webhookUrlProblem("http://[::ffff:8.8.8.8]/hook", production)).toBeNull();
    expect(webhookUrlProblem("http://[64:ff9b::8.8.8.8]/hook", production)).toBeNull();
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
    expect(webhookUrlProblem("https://STUDIO-content.example.net./x", production)).toBe("webhook URL points at the studio itself");
    for (const url of [
      "http://127.0.0.1:8787/api/health", "http://localhost:8787/", "http://localhost.:8787/", "http://[::1]:8787/", "http://127.0.0.2:8787/",
      "http://[::ffff:127.0.0.1]:8787/", "http://[::ffff:7f00:1]:8787/", "http://2130706433:8787/", "http://0x7f.1:8787/", "http://127.1:8787/",
      "http://[0:0:0:0:0:0:0:1]:8787/", "http://0.0.0.0:8787/", "http://[::]:8787/", "http://[64:ff9b::7f00:1]:8787/",
    ]) {
      // Even a local studio that allows loopback receivers never calls itself.
      expect(webhookUrlProblem(url, { ...local, allowedHosts: parseSetting("WEBHOOK_ALLOWED_HOSTS", "127.0.0.0/8,::1,localhost") }), url).toBe("webhook URL points at the studio itself");
    }
  });

  it.each([
    // loopback in every spelling the URL parser lets through
    ["http://127.0.0.1:9000/", "loopback address (127.0.0.1)"],
    ["http://127.1/", "loopback address (127.0.0.1)"],
    ["http://2130706433/", "loopback address (127.0.0.1)"],
    ["http://0x7f.1/", "loopback address (127.0.0.1)"],
    ["http://0177.0.0.1/", "loopback address (127.0.0.1)"],
    ["http://[::1]/", "loopback address (0:0:0:0:0:0:0:1)"],
    ["http://[0:0:0:0:0:0:0:1]/", "loopback address (0:0:0:0:0:0:0:1)"],
    ["http://[::ffff:127.0.0.1]/", "loopback address (0:0:0:0:0:ffff:7f00:1)"],
    ["http://[::ffff:7f00:1]/", "loopback address (0:0:0:0:0:ffff:7f00:1)"],
    ["http://[::ffff:0:7f00:1]/", "loopback address (0:0:0:0:ffff:0:7f00:1)"],
    ["http://[::127.0.0.1]/", "loopback address (0:0:0:0:0:0:7f00:1)"],
    ["http://[64:ff9b::7f00:1]/", "loopback address (64:ff9b:0:0:0:0:7f00:1)"],
    ["http://[2002:7f00:1::]/", "loopback address (2002:7f00:1:0:0:0:0:0)"],
    ["http://localhost:3000/", "loopback host name (localhost)"],
    ["http://localhost./", "loopback host name (localhost)"],
    ["http://api.localhost/", "loopback host name (api.localhost)"],
    // unspecified: connects to this machine on most systems
    ["http://0.0.0.0/", "unspecified address (0.0.0.0)"],
    ["http://0/", "unspecified address (0.0.0.0)"],
    ["http://[::]/", "unspecified address (0:0:0:0:0:0:0:0)"],
    // private networks, link-local (cloud metadata), unique-local, CGNAT
    ["http://10.1.2.3/", "private address (10.1.2.3)"],
    ["http://172.16.0.1/", "private address (172.16.0.1)"],
    ["http://192.168.1.1/", "private address (192.168.1.1)"],
    ["http://[::ffff:192.168.1.1]/", "private address (0:0:0:0:0:ffff:c0a8:101)"],
    ["http://169.254.169.254/latest", "link-local address (169.254.169.254)"],
    ["http://[fe80::1]/", "link-local address (fe80:0:0:0:0:0:0:1)"],
    ["http://[fd00::1]/", "unique-local address (fd00:0:0:0:0:0:0:1)"],
    ["http://100.64.0.1/", "shared (CGNAT) address (100.64.0.1)"],
    ["http://[64:ff9b:1::a00:1]/", "private address (64:ff9b:1:0:0:0:a00:1)"],
    // multicast, documentation, benchmarking, reserved
    ["http://224.0.0.1/", "multicast address (224.0.0.1)"],
    ["http://[ff02::1]/", "multicast address (ff02:0:0:0:0:0:0:1)"],
    ["http://203.0.113.9/", "documentation address (203.0.113.9)"],
    ["http://[2001:db8::1]/", "documentation address (2001:db8:0:0:0:0:0:1)"],
    ["http://198.18.0.1/", "benchmarking address (198.18.0.1)"],
    ["http://255.255.255.255/", "reserved address (255.255.255.255)"],
    ["http://[100::1]/", "reserved address (100:0:0:0:0:0:0:1)"],
    // internal names
    ["http://printer.local/", "internal host name (printer.local)"],
    ["http://metadata.google.internal/", "internal host name (metadata.google.internal)"],
    ["http://intranet/", "internal host name (intranet)"],
    ["http://nas.home.arpa./", "internal host name (nas.home.arpa)"],
  ])("refuses %s by default, wherever the studio runs (%s)", (url, why) => {
    for (const origins of [production, local]) {
      const problem = webhookUrlProblem(url, origins);
      expect(problem, url).toMatch(REFUSED);
      expect(problem, url).toContain(` ${why}, `);
    }
  });

  it("allows exactly what WEBHOOK_ALLOWED_HOSTS names: hosts, addresses in any spelling, CIDR ranges", () => {
    const allowedHosts = parseSetting("WEBHOOK_ALLOWED_HOSTS", " 127.0.0.1, ci.internal. ,10.0.0.0/8, fd00::/8, ::1, ");
    const policy = { ...production, allowedHosts };
    for (const url of [
      "http://127.0.0.1:9000/hook", "http://127.1:9000/", "http://[::ffff:127.0.0.1]:9000/", "http://CI.internal/hook", "http://ci.internal./",
      "http://10.200.3.4/", "http://[::ffff:10.0.0.1]/", "http://[fd12::5]/", "http://[::1]:9000/",
    ]) {
      expect(webhookUrlProblem(url, policy), url).toBeNull();
    }
    for (const url of ["http://127.0.0.2/", "http://other.internal/", "http://192.168.1.1/", "http://[fe80::1]/", "http://localhost:9000/", "http://11.0.0.1.internal/"]) {
      expect(webhookUrlProblem(url, policy), url).toMatch(REFUSED);
    }
    expect(parseSetting("WEBHOOK_ALLOWED_HOSTS", undefined)).toEqual([]);
    // An entry that is none of these is a configuration error naming it, never an entry quietly dropped.
    for (const entry of ["nonsense/99", "a/b/c", "10.0.0.0/33", "::/129", "under_score"]) {
      expect(() => parseSetting("WEBHOOK_ALLOWED_HOSTS", `127.0.0.1, ${entry}`), entry).toThrow(
        `WEBHOOK_ALLOWED_HOSTS: expected comma-separated host names, IP addresses or CIDR ranges, got ${JSON.stringify(entry)} in ${JSON.stringify(`127.0.0.1, ${entry}`)}`,
      );
    }
  });
});

describe("parseIpv6 and addressClassOf (the pure helpers)", () => {
  const groups = (text: string) => {
    const bytes = parseIpv6(text);
    return bytes && Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  };

  it("reads every spelling of an address into its eight groups", () => {
    expect(groups("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(groups("[0:0:0:0:0:0:0:1]")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(groups("0000:0000::0001")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(groups("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(groups("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(groups("0:0:0:0:0:ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(groups("2001:DB8::")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]);
    expect(groups("fe80::")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("refuses what is not an IPv6 address", () => {
    for (const text of ["", ":", ":::", "1::2::3", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1:2:3:4::5:6:7:8", "12345::", "g::1", "1.2.3.4::", "::1.2.3", "::256.0.0.1", "example.org"]) {
      expect(parseIpv6(text), text).toBeNull();
    }
  });

  it("judges an IPv6 address that carries an IPv4 one by the IPv4 address", () => {
    const v6 = (text: string) => addressClassOf({ version: 6, bytes: parseIpv6(text)! });
    expect(v6("::ffff:10.0.0.1")).toBe("private");
    expect(v6("::ffff:0:169.254.1.1")).toBe("link-local");
    expect(v6("64:ff9b::100.64.0.1")).toBe("shared (CGNAT)");
    expect(v6("2002:c0a8:101::1")).toBe("private");
    expect(v6("2002:808:808::1")).toBeNull();
    expect(v6("2a00:1450::1")).toBeNull();
    expect(v6("4000::1")).toBe("reserved");
  });
});

describe("backoff", () => {
  it("waits the schedule's delays in order, then gives up", () => {
    expect(retryDelayMs(DEFAULT_BACKOFF_SECONDS, 1)).toBe(5000);
    expect(retryDelayMs(DEFAULT_BACKOFF_SECONDS, 6)).toBe(7_200_000);
    expect(retryDelayMs(DEFAULT_BACKOFF_SECONDS, 7)).toBeNull();
  });

  it("reads WEBHOOK_BACKOFF_SECONDS; a malformed schedule is an error naming it, never the default", () => {
    expect(parseSetting("WEBHOOK_BACKOFF_SECONDS", "1, 2")).toEqual([1, 2]);
    expect(parseSetting("WEBHOOK_BACKOFF_SECONDS", undefined)).toEqual(DEFAULT_BACKOFF_SECONDS);
    expect(() => parseSetting("WEBHOOK_BACKOFF_SECONDS", "1,x")).toThrow('WEBHOOK_BACKOFF_SECONDS: expected comma-separated numbers of seconds, each 0 or more, got "x" in "1,x"');
    expect(() => parseSetting("WEBHOOK_BACKOFF_SECONDS", "-1")).toThrow('WEBHOOK_BACKOFF_SECONDS: expected comma-separated numbers of seconds, each 0 or more, got "-1"');
  });
});
