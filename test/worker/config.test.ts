// The Worker's configuration (worker/config/): every kind of setting read good, left to its default and refused with
// a message naming it; the rules between settings; bindings present or missing; one frozen parse per env object;
// and, through the Worker's own fetch and scheduled handlers, what a bad configuration does: every request a 500
// `misconfigured` naming the setting (health too, with the problems), a log line, housekeeping skipped.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configOf, envWith } from "../../worker/config/config-of.ts";
import { ConfigError, parseConfig } from "../../worker/config/parse-config.ts";
import { BINDINGS } from "../../worker/config/settings.ts";
import type { Env } from "../../worker/env.ts";
import worker from "../../worker/index.ts";

const studioEnv = env as unknown as Env;
/** The bindings alone, with the one required secret: what a Worker with no vars set would see. */
const bare = {
  ...Object.fromEntries(Object.keys(BINDINGS).flatMap((name) => (name in env ? [[name, (env as unknown as Record<string, unknown>)[name]]] : []))),
  TOKEN_SECRET: "a-secret-of-sixteen+",
};
const parse = (vars: Record<string, unknown>) => parseConfig({ ...bare, ...vars });
/** The message parseConfig throws for these vars ("" when it throws nothing). */
function problemOf(vars: Record<string, unknown>): string {
  try {
    parse(vars);
    return "";
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
}

describe("reading settings", () => {
  it("gives every setting its default when nothing is set", () => {
    const config = parse({});
    expect(config).toMatchObject({
      BASE_URL: "http://127.0.0.1:8787",
      CONTENT_URL: "http://localhost:8787",
      DEV_LOGIN: false,
      ADMIN_USER_IDS: [],
      IDEA_WRITE_LIMIT: 30,
      IDEA_WRITE_WINDOW_SECONDS: 60,
      OAUTH_REGISTRATIONS_PER_ADDRESS: 10,
      OAUTH_REGISTRATIONS_PER_NETWORK: 30,
      OAUTH_REGISTRATIONS_PER_SITE: 60,
      OAUTH_REGISTRATION_NETWORKS: 1000,
      OAUTH_UNUSED_CLIENT_SECONDS: 86_400,
      OAUTH_CLIENT_METADATA_FETCHES_PER_USER: 20,
      OAUTH_CLIENT_METADATA_WINDOW_SECONDS: 3600,
      OAUTH_REGISTRATION_WINDOW_SECONDS: 3600,
      MAX_FILE_BYTES: 100 * 1024 ** 2,
      MAX_STORAGE_BYTES: 5 * 1024 ** 3,
      MAX_STORED_FILES: 100_000,
      JOB_LEASE_MS: 30_000,
      MAX_JOB_ATTEMPTS: 3,
      MAX_SEGMENTS: 64,
      SEGMENT_OVERHEAD_MS: 3000,
      NODE_FRAMES_PER_SECOND: 15,
      JOIN_MS_PER_VIDEO_SECOND: 75,
      MAX_VIDEO_SECONDS: 3600,
      MAX_RENDER_MS: 1_800_000,
      MAX_RENDERS_PER_USER: 3,
      MAX_SNAPSHOTS_PER_USER: 2,
      MAX_CHECKS_PER_USER: 2,
      MAX_PREVIEWS_PER_USER: 3,
      NODE_PICKUP_TIMEOUT_MS: 30_000,
      MCP_RENDER_WAIT_MS: 25_000,
      BROWSER_JOB_TIMEOUT_MS: 180_000,
      JOB_RETENTION_DAYS: 7,
      WEBHOOK_BACKOFF_SECONDS: [5, 30, 120, 600, 1800, 7200],
      WEBHOOK_ALLOWED_HOSTS: [],
      CONTAINER_MIN_INSTANCES: 0,
      CONTAINER_MAX_INSTANCES: 8,
      CONTAINER_JOBS_PER_INSTANCE: 1,
    });
    for (const unset of ["GITHUB_CLIENT_ID", "GOOGLE_CLIENT_SECRET", "CONTAINER_NODE_KEY"] as const) {
      expect(config[unset], unset).toBeUndefined();
    }
  });

  it("reads the values the tests run with (vitest.config.ts) as the Worker always did", () => {
    expect(configOf(studioEnv)).toMatchObject({
      BASE_URL: "http://studio.test",
      CONTENT_URL: "http://content.studio.test",
      DEV_LOGIN: true,
      MAX_FILE_BYTES: 1_048_576,
      MAX_STORAGE_BYTES: 8_388_608,
      ADMIN_USER_IDS: [],
      GITHUB_CLIENT_ID: "test-github-client",
      NODE_PICKUP_TIMEOUT_MS: 1500,
      BROWSER_JOB_TIMEOUT_MS: 4000,
      MAX_RENDER_MS: 6000,
      MCP_RENDER_WAIT_MS: 2500,
    });
  });

  it("reads good values of every kind; an empty value counts as unset; wrangler.toml numbers and booleans are read as their text", () => {
    const config = parse({
      BASE_URL: "HTTPS://Studio.Example.com/",
      CONTENT_URL: "https://studio-content.example.net:8443",
      DEV_LOGIN: true,
      ADMIN_USER_IDS: " 6f1c0c9e-1d2b-4a5e-9a41-0d7c3f1b2a77 , other-admin,",
      MAX_STORAGE_BYTES: " 1073741824 ",
      MAX_FILE_BYTES: 2048,
      JOB_LEASE_MS: "1000",
      MAX_SEGMENTS: "2",
      NODE_FRAMES_PER_SECOND: "2.5",
      MAX_VIDEO_SECONDS: "0.5",
      JOB_RETENTION_DAYS: "1.5",
      WEBHOOK_BACKOFF_SECONDS: "0, 1.5,60",
      WEBHOOK_ALLOWED_HOSTS: "127.0.0.1, ci.internal, 10.0.0.0/8",
      CONTAINER_POOL_SIZE: "2",
      IDEA_WRITE_LIMIT: "",
      GITHUB_CLIENT_ID: "id",
      GITHUB_CLIENT_SECRET: "secret",
    });
    expect(config).toMatchObject({
      BASE_URL: "https://studio.example.com",
      CONTENT_URL: "https://studio-content.example.net:8443",
      DEV_LOGIN: true,
      ADMIN_USER_IDS: ["6f1c0c9e-1d2b-4a5e-9a41-0d7c3f1b2a77", "other-admin"],
      MAX_STORAGE_BYTES: 1_073_741_824,
      MAX_FILE_BYTES: 2048,
      JOB_LEASE_MS: 1000,
      MAX_SEGMENTS: 2,
      NODE_FRAMES_PER_SECOND: 2.5,
      MAX_VIDEO_SECONDS: 0.5,
      JOB_RETENTION_DAYS: 1.5,
      WEBHOOK_BACKOFF_SECONDS: [0, 1.5, 60],
      CONTAINER_MAX_INSTANCES: 2,
      IDEA_WRITE_LIMIT: 30,
      GITHUB_CLIENT_SECRET: "secret",
    });
    expect(config.WEBHOOK_ALLOWED_HOSTS).toHaveLength(3);
  });

  it("refuses a bad value of every kind with a message naming the setting, what it expects and what it got", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ MAX_STORAGE_BYTES: "5GB" }, 'MAX_STORAGE_BYTES: expected a positive integer number of bytes, got "5GB"'],
      [{ MAX_STORAGE_BYTES: "0" }, 'MAX_STORAGE_BYTES: expected a positive integer number of bytes, got "0"'],
      [{ MAX_FILE_BYTES: "1e9" }, 'MAX_FILE_BYTES: expected a positive integer number of bytes, got "1e9"'],
      [{ MAX_STORED_FILES: "1.5" }, 'MAX_STORED_FILES: expected a positive integer number of objects, got "1.5"'],
      [{ MAX_JOB_ATTEMPTS: "-1" }, 'MAX_JOB_ATTEMPTS: expected a positive integer number of attempts, got "-1"'],
      [{ JOB_LEASE_MS: "500" }, 'JOB_LEASE_MS: expected a whole number of milliseconds, at least 1000, got "500"'],
      [{ NODE_PICKUP_TIMEOUT_MS: "30s" }, 'NODE_PICKUP_TIMEOUT_MS: expected a whole number of milliseconds, at least 100, got "30s"'],
      [{ MAX_RENDERS_PER_USER: "three" }, 'MAX_RENDERS_PER_USER: expected a positive integer number of renders, got "three"'],
      [{ CONTAINER_MAX_INSTANCES: "100" }, 'CONTAINER_MAX_INSTANCES: expected a whole number from 1 to 64, got "100"'],
      [{ MAX_VIDEO_SECONDS: "0" }, 'MAX_VIDEO_SECONDS: expected a positive number of seconds, got "0"'],
      [{ JOB_RETENTION_DAYS: "a week" }, 'JOB_RETENTION_DAYS: expected a positive number of days, got "a week"'],
      [{ DEV_LOGIN: "yes" }, 'DEV_LOGIN: expected "true" or "false", got "yes"'],
      [{ BASE_URL: "studio.example.com" }, 'BASE_URL: expected an http(s) origin such as https://studio.example.com (scheme, host and port only), got "studio.example.com"'],
      [{ BASE_URL: "https://example.com/studio" }, 'BASE_URL: expected an http(s) origin such as https://studio.example.com (scheme, host and port only), got "https://example.com/studio"'],
      [{ CONTENT_URL: "ftp://content.example.net" }, 'CONTENT_URL: expected an http(s) origin such as https://studio.example.com (scheme, host and port only), got "ftp://content.example.net"'],
      [{ ADMIN_USER_IDS: "alice, bob smith" }, 'ADMIN_USER_IDS: expected comma-separated user ids (as GET /api/me reports them), got "bob smith" in "alice, bob smith"'],
      [{ WEBHOOK_BACKOFF_SECONDS: "5,30s" }, 'WEBHOOK_BACKOFF_SECONDS: expected comma-separated numbers of seconds, each 0 or more, got "30s" in "5,30s"'],
      [{ WEBHOOK_BACKOFF_SECONDS: "," }, 'WEBHOOK_BACKOFF_SECONDS: expected comma-separated numbers of seconds, each 0 or more, got ","'],
      [{ WEBHOOK_ALLOWED_HOSTS: "10.0.0.0/33" }, 'WEBHOOK_ALLOWED_HOSTS: expected comma-separated host names, IP addresses or CIDR ranges, got "10.0.0.0/33"'],
      [{ CONTAINER_POOL_SIZE: "lots" }, 'CONTAINER_POOL_SIZE: expected a whole number from 1 to 64, got "lots"'],
      [{ NODE_FRAMES_PER_SECOND: "0" }, 'NODE_FRAMES_PER_SECOND: expected a positive number of frames per second, got "0"'],
      // Retired settings: one still set would silently do nothing, so it is refused with what replaced it.
      [{ SEGMENT_MIN_FRAMES: "90" }, "SEGMENT_MIN_FRAMES: no longer read: a render is split when the farm model says it finishes sooner (SEGMENT_OVERHEAD_MS, NODE_FRAMES_PER_SECOND, JOIN_MS_PER_VIDEO_SECOND); remove it"],
      [{ SEGMENT_TARGET_FRAMES: "90" }, "SEGMENT_TARGET_FRAMES: no longer read: a split render gets one segment per free node (at most MAX_SEGMENTS); remove it"],
      [{ OAUTH_REGISTRATIONS_TOTAL: "300" }, "OAUTH_REGISTRATIONS_TOTAL: no longer read: one network could use up a total for everyone; all callers together are limited by distinct networks (OAUTH_REGISTRATION_NETWORKS); remove it"],
      [{ MAX_FILE_BYTES: { bytes: 1 } }, "MAX_FILE_BYTES: expected text, got a value of type object"],
      [{ TOKEN_SECRET: undefined }, "TOKEN_SECRET: required but unset"],
      [{ TOKEN_SECRET: "  " }, "TOKEN_SECRET: required but unset"],
    ];
    for (const [vars, message] of cases) expect(problemOf(vars), JSON.stringify(vars)).toBe(message);
  });

  it("never shows a secret's value, only its length", () => {
    expect(problemOf({ TOKEN_SECRET: "hunter2" })).toBe("TOKEN_SECRET: expected at least 16 characters, got 7 characters");
  });

  it("names every problem at once, in the schema's order", () => {
    expect(problemOf({ MAX_FILE_BYTES: "lots", DEV_LOGIN: "1" })).toBe(
      'DEV_LOGIN: expected "true" or "false", got "1"; MAX_FILE_BYTES: expected a positive integer number of bytes, got "lots"',
    );
  });

  it("checks the rules between settings", () => {
    expect(problemOf({ GITHUB_CLIENT_ID: "id" })).toBe("GITHUB_CLIENT_SECRET: unset while GITHUB_CLIENT_ID is set; set both (GitHub sign-in) or neither");
    expect(problemOf({ GOOGLE_CLIENT_SECRET: "secret" })).toBe("GOOGLE_CLIENT_ID: unset while GOOGLE_CLIENT_SECRET is set; set both (Google sign-in) or neither");
    expect(problemOf({ BASE_URL: "https://studio.example.com", CONTENT_URL: "https://studio.example.com/" })).toBe(
      "CONTENT_URL: must be on another host than BASE_URL (both are studio.example.com); user content needs a site of its own",
    );
    expect(problemOf({ CONTAINER_MIN_INSTANCES: "9" })).toBe("CONTAINER_MIN_INSTANCES: 9 is more than CONTAINER_MAX_INSTANCES (8)");
    // Containers bound: they need the Worker's address and a key.
    const containers = { RENDER_NODE_CONTAINER: {} };
    expect(problemOf(containers)).toBe(
      "BASE_URL: required when RENDER_NODE_CONTAINER is bound: render containers reach the Worker there; " +
        "CONTAINER_NODE_KEY: required when RENDER_NODE_CONTAINER is bound: `npm run node-key -- containers --remote`, then `wrangler secret put CONTAINER_NODE_KEY`",
    );
    expect(problemOf({ ...containers, BASE_URL: "https://studio.example.com", CONTENT_URL: "https://content.example.net", CONTAINER_NODE_KEY: "nk" })).toBe("");
  });

  it("requires the bindings the Worker cannot serve without, and only those", () => {
    const { DB: _db, ASSETS: _assets, ...withoutDb } = bare as Record<string, unknown>;
    expect(() => parseConfig(withoutDb)).toThrow("DB: binding missing: declare it in wrangler.toml ([[d1_databases]])");
    const { ASSETS: _a, CF_VERSION_METADATA: _m, ...withoutOptional } = bare as Record<string, unknown>;
    expect(() => parseConfig(withoutOptional)).not.toThrow();
  });
});

describe("configOf", () => {
  it("parses an env object once, into a frozen configuration", () => {
    const own = { ...studioEnv };
    const config = configOf(own);
    expect(configOf(own)).toBe(config);
    expect(configOf({ ...own })).not.toBe(config);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.WEBHOOK_BACKOFF_SECONDS)).toBe(true);
    expect(() => {
      (config as { MAX_FILE_BYTES: number }).MAX_FILE_BYTES = 1;
    }).toThrow(TypeError);
  });

  it("hands a request's env with wrapped bindings the configuration already parsed, and nothing else", () => {
    const own = { ...studioEnv };
    const config = configOf(own);
    const wrapped = { prepare: () => undefined };
    const requestEnv = envWith(own, { DB: wrapped as unknown as D1Database });
    expect(requestEnv.DB).toBe(wrapped);
    expect(requestEnv.FILES).toBe(own.FILES);
    expect(configOf(requestEnv)).toBe(config);
    // A bad configuration stays bad in every env made from it.
    const bad = { ...studioEnv, MAX_FILE_BYTES: "lots" };
    expect(() => configOf(envWith(bad, {}))).toThrow("MAX_FILE_BYTES");
  });
});

describe("a bad configuration, through the Worker", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function call(url: string, bad: Env): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(url), bad, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }

  it("answers every request 500 misconfigured naming the setting, health with the problems, and logs it", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const bad = { ...studioEnv, MAX_FILE_BYTES: "lots" };
    const error = 'server misconfigured: MAX_FILE_BYTES: expected a positive integer number of bytes, got "lots"';
    for (const url of ["http://studio.test/api/projects", "http://studio.test/", "http://content.studio.test/c/x/"]) {
      const res = await call(url, bad);
      expect(res.status, url).toBe(500);
      expect(await res.json(), url).toEqual({ error, code: "misconfigured" });
    }
    const health = await call("http://studio.test/api/health", bad);
    expect(health.status).toBe(500);
    expect(await health.json()).toMatchObject({
      error,
      code: "misconfigured",
      ok: false,
      problems: [{ setting: "MAX_FILE_BYTES", problem: 'expected a positive integer number of bytes, got "lots"' }],
    });
    const lines = errors.mock.calls.map((args) => JSON.parse(String(args[0])) as { event: string; path: string; problems: { setting: string }[] });
    expect(lines.filter((l) => l.event === "misconfigured").map((l) => [l.path, l.problems[0]?.setting])).toEqual([
      ["/api/projects", "MAX_FILE_BYTES"],
      ["/", "MAX_FILE_BYTES"],
      ["/c/x/", "MAX_FILE_BYTES"],
      ["/api/health", "MAX_FILE_BYTES"],
    ]);
  });

  it("serves a good configuration of its own, read from the env object it is given", async () => {
    const res = await call("http://studio.test/api/health", { ...studioEnv, BASE_URL: "http://studio.test:8080/" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, baseUrl: "http://studio.test:8080" });
  });

  it("skips housekeeping with the log line", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await worker.scheduled(createScheduledController({ cron: "17 * * * *" }), { ...studioEnv, JOB_RETENTION_DAYS: "-7" });
    expect(errors.mock.calls.map((args) => JSON.parse(String(args[0])) as unknown)).toEqual([
      { level: "error", event: "misconfigured", during: "housekeeping", problems: [{ setting: "JOB_RETENTION_DAYS", problem: 'expected a positive number of days, got "-7"' }] },
    ]);
  });
});
