// The checks `npm run deploy` and CI's check:deploy make on a wrangler.toml environment (scripts/lib/deploy-checks.ts):
// the placeholder D1 id and example domains (refused by a deploy, listed by CI), and what is wrong whoever deploys it
// (same-site origins, unrouted hosts, non-https or non-origin URLs, dev sign-in, whatever the Worker's own
// configuration schema refuses, instance counts past max_instances, undeclared required secrets). Pure, then the real
// `npm run check:deploy` on a copy of the repository with one setting changed (wrangler reads it; no network).
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkDeployTarget,
  isExampleHost,
  isSameSite,
  PLACEHOLDER_DATABASE_ID,
  PLACEHOLDER_KV_ID,
  registrableDomain,
  routeServesHost,
  type DeployTarget,
} from "../../scripts/lib/deploy-checks.ts";
import { commandLine, missingSecrets, missingSecretsMessage, remoteSteps, secretListStep } from "../../scripts/lib/deploy-steps.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";

const DB_ID = "6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b";
/** What [env.production] binds, as wrangler.toml ships it: every binding the Worker's schema requires, and the containers. */
const BINDINGS = ["DB", "OAUTH_KV", "FILES", "PROJECT_ROOM", "WEBHOOK_OUTBOX", "JOB_BOARD", "STORAGE_LEDGER", "RENDER_NODE_CONTAINER", "ASSETS", "CF_VERSION_METADATA"];
const CONTAINERS = [{ className: "RenderNodeContainer", binding: "RENDER_NODE_CONTAINER", maxInstances: 8 }];
const SECRETS = ["TOKEN_SECRET", "CONTAINER_NODE_KEY"];

/** A production environment ready to deploy, changed by `overrides`. */
function ready(overrides: Partial<DeployTarget> = {}, vars: Record<string, unknown> = {}): DeployTarget {
  return {
    env: "production",
    databases: [{ binding: "DB", name: "studio", id: DB_ID }],
    routes: ["studio.acme.io", "acme-usercontent.net"],
    bindings: BINDINGS,
    containers: CONTAINERS,
    secretsRequired: SECRETS,
    ...overrides,
    vars: { DEV_LOGIN: "false", BASE_URL: "https://studio.acme.io", CONTENT_URL: "https://acme-usercontent.net", ...vars },
  };
}

/** The problems of a target as `kind setting` lines, the shape these tests compare. */
function found(target: DeployTarget): string[] {
  return checkDeployTarget(target).map((p) => `${p.kind} ${p.setting}`);
}

describe("a ready environment", () => {
  it("has no problem", () => {
    expect(checkDeployTarget(ready())).toEqual([]);
  });
});

describe("the repository's wrangler.toml as it ships", () => {
  const shipped: DeployTarget = {
    env: "production",
    databases: [{ binding: "DB", name: "studio", id: PLACEHOLDER_DATABASE_ID }],
    vars: { DEV_LOGIN: "false", BASE_URL: "https://studio.example.com", CONTENT_URL: "https://studio-content.example.net" },
    routes: ["studio.example.com", "studio-content.example.net"],
    bindings: BINDINGS,
    containers: CONTAINERS,
    secretsRequired: SECRETS,
  };

  it("is unfinished (a deploy refuses it) but not invalid (CI passes it)", () => {
    expect(found(shipped)).toEqual([
      "unfinished [[env.production.d1_databases]] DB database_id",
      "unfinished [env.production] vars.BASE_URL",
      "unfinished [env.production] vars.CONTENT_URL",
      "unfinished [env.production] routes",
      "unfinished [env.production] routes",
    ]);
  });

  it("says how to create the database and where its id goes", () => {
    const [db] = checkDeployTarget(shipped);
    expect(db!.message).toContain("placeholder database_id 00000000-0000-0000-0000-000000000000");
    expect(db!.message).toContain("`npx wrangler d1 create studio`");
    expect(db!.message).toContain("[[env.production.d1_databases]]");
  });
});

describe("the OAUTH_KV namespace id", () => {
  const kv = (id: string | undefined) => ready({ kvNamespaces: [{ binding: "OAUTH_KV", id }] });
  it("is unfinished while it is the shipped placeholder, and says how to create the namespace", () => {
    expect(found(kv("0123456789abcdef0123456789abcdef"))).toEqual([]);
    const [problem] = checkDeployTarget(kv(PLACEHOLDER_KV_ID));
    expect(problem).toMatchObject({ kind: "unfinished", setting: "[[env.production.kv_namespaces]] OAUTH_KV id" });
    expect(problem!.message).toContain("`npx wrangler kv namespace create OAUTH_KV`");
  });
  it("refuses a missing id and one that is not 32 hex digits as invalid", () => {
    expect(found(kv(undefined))).toEqual(["invalid [[env.production.kv_namespaces]] OAUTH_KV id"]);
    expect(found(kv("oauth"))).toEqual(["invalid [[env.production.kv_namespaces]] OAUTH_KV id"]);
  });
});

describe("the D1 database id", () => {
  it("refuses a missing id and one that is not a UUID as invalid", () => {
    expect(found(ready({ databases: [{ binding: "DB", name: "studio", id: undefined }] }))).toEqual([
      "invalid [[env.production.d1_databases]] DB database_id",
    ]);
    const notUuid = checkDeployTarget(ready({ databases: [{ binding: "DB", name: "studio", id: "studio" }] }));
    expect(notUuid.map((p) => p.kind)).toEqual(["invalid"]);
    expect(notUuid[0]!.message).toContain("npx wrangler d1 list");
  });
});

describe("BASE_URL and CONTENT_URL", () => {
  it("refuses the two on one site: a subdomain of the studio's, the same host, or a sibling subdomain", () => {
    for (const content of ["https://content.studio.acme.io", "https://studio.acme.io", "https://usercontent.acme.io"]) {
      const host = new URL(content).hostname;
      const problems = checkDeployTarget(ready({ routes: ["studio.acme.io", host] }, { CONTENT_URL: content }));
      expect(problems.map((p) => `${p.kind} ${p.setting}`)).toEqual(["invalid [env.production] vars.CONTENT_URL"]);
      expect(problems[0]!.message).toContain("same site (acme.io)");
    }
  });

  it("flags example and reserved domains as unfinished", () => {
    expect(found(ready({ routes: ["studio.acme.io", "content.test"] }, { CONTENT_URL: "https://content.test" }))).toEqual([
      "unfinished [env.production] vars.CONTENT_URL",
      "unfinished [env.production] routes",
    ]);
  });

  it("needs both set (unset, links point at a local address)", () => {
    expect(found(ready({}, { BASE_URL: undefined, CONTENT_URL: "" }))).toEqual([
      "unfinished [env.production] vars.BASE_URL",
      "unfinished [env.production] vars.CONTENT_URL",
    ]);
  });

  it("refuses http, a path, credentials and garbage as invalid", () => {
    for (const bad of ["http://studio.acme.io", "https://studio.acme.io/app", "https://u:p@studio.acme.io", "studio.acme.io", 42]) {
      const problems = checkDeployTarget(ready({}, { BASE_URL: bad }));
      expect(problems.filter((p) => p.setting === "[env.production] vars.BASE_URL").map((p) => p.kind)).toEqual(["invalid"]);
    }
    // A trailing slash is still an origin.
    expect(checkDeployTarget(ready({}, { BASE_URL: "https://studio.acme.io/" }))).toEqual([]);
  });
});

describe("routes", () => {
  it("refuses an origin whose host no route serves, naming the route to add", () => {
    const problems = checkDeployTarget(ready({ routes: ["studio.acme.io"] }));
    expect(problems.map((p) => `${p.kind} ${p.setting}`)).toEqual(["invalid [env.production] routes"]);
    expect(problems[0]!.message).toContain('add { pattern = "acme-usercontent.net", custom_domain = true }');
  });

  it("counts zone routes and wildcards that serve every path of the host", () => {
    expect(routeServesHost("acme-usercontent.net/*", "acme-usercontent.net")).toBe(true);
    expect(routeServesHost("*.acme.io/*", "studio.acme.io")).toBe(true);
    expect(routeServesHost("*acme.io/*", "acme.io")).toBe(true);
    expect(routeServesHost("*.acme.io/*", "acme.io")).toBe(false);
    expect(routeServesHost("studio.acme.io/api/*", "studio.acme.io")).toBe(false);
    expect(routeServesHost("other.acme.io", "studio.acme.io")).toBe(false);
    expect(checkDeployTarget(ready({ routes: ["*.acme.io/*", "acme-usercontent.net/*"] }))).toEqual([]);
  });
});

describe("development sign-in", () => {
  it('is invalid when DEV_LOGIN is "true" in a deployed environment', () => {
    expect(found(ready({}, { DEV_LOGIN: "true" }))).toEqual(["invalid [env.production] vars.DEV_LOGIN"]);
  });
});

describe("the site rule (the Public Suffix List)", () => {
  it("compares registrable domains, never letting a same-site pair through", () => {
    expect(registrableDomain("a.b.studio.acme.io")).toBe("acme.io");
    expect(registrableDomain("Studio.Acme.IO.")).toBe("acme.io");
    expect(isSameSite("studio.acme.io", "content.acme.io")).toBe(true);
    expect(isSameSite("studio.acme.io", "acme-usercontent.net")).toBe(false);
    expect(isSameSite("studio.acme.io", "studio.acme.dev")).toBe(false);
    // Multi-label public suffixes and the list's private section: different sites, as browsers see them.
    expect(isSameSite("studio.acme.co.uk", "content.other.co.uk")).toBe(false);
    expect(isSameSite("studio.acme.co.uk", "content.acme.co.uk")).toBe(true);
    expect(isSameSite("studio.pages.dev", "content.pages.dev")).toBe(false);
    expect(registrableDomain("192.0.2.7")).toBe("192.0.2.7");
  });

  it("knows example and reserved names", () => {
    for (const host of ["example.com", "studio.example.net", "x.example.org", "studio.test", "a.example", "localhost"]) {
      expect(isExampleHost(host), host).toBe(true);
    }
    for (const host of ["studio.acme.io", "example-studio.com", "examples.net"]) expect(isExampleHost(host), host).toBe(false);
  });
});

describe("the remote steps", () => {
  it("migrates each D1 database of the environment, then deploys it; --no-docker leaves the containers alone", () => {
    expect(remoteSteps(ready(), { noDocker: false }).map(commandLine)).toEqual([
      "npx wrangler d1 migrations apply studio --remote --env production",
      "npx wrangler deploy --env production",
    ]);
    expect(remoteSteps(ready(), { noDocker: true }).map(commandLine).at(-1)).toBe(
      "npx wrangler deploy --env production --containers-rollout=none",
    );
  });
});

describe("what the Worker's configuration schema refuses (worker/config/)", () => {
  it("refuses a variable the Worker cannot read, naming it and the schema's reason", () => {
    const problems = checkDeployTarget(ready({}, { MAX_FILE_BYTES: "100MB", CONTAINER_JOBS_PER_INSTANCE: "0" }));
    expect(problems.map((p) => `${p.kind} ${p.setting}`)).toEqual([
      "invalid [env.production] vars.MAX_FILE_BYTES",
      "invalid [env.production] vars.CONTAINER_JOBS_PER_INSTANCE",
    ]);
    expect(problems[0]!.message).toContain('MAX_FILE_BYTES: expected a positive integer number of bytes, got "100MB"');
    expect(problems[0]!.message).toContain("500 misconfigured");
    expect(problems[1]!.message).toContain('got "0"');
  });

  it("runs the schema's rules between settings and its retired names", () => {
    expect(found(ready({}, { CONTAINER_MIN_INSTANCES: "5", CONTAINER_MAX_INSTANCES: "4" }))).toEqual(["invalid [env.production] vars.CONTAINER_MIN_INSTANCES"]);
    expect(found(ready({}, { SEGMENT_MIN_FRAMES: "90" }))).toEqual(["invalid [env.production] vars.SEGMENT_MIN_FRAMES"]);
    expect(found(ready({}, { GITHUB_CLIENT_ID: "abc" }))).toEqual(["invalid [env.production] secrets.required"]);
  });

  it("refuses a binding the Worker requires that the environment does not declare", () => {
    const problems = checkDeployTarget(ready({ bindings: BINDINGS.filter((b) => b !== "STORAGE_LEDGER") }));
    expect(problems.map((p) => `${p.kind} ${p.setting}`)).toEqual(["invalid [env.production] STORAGE_LEDGER binding"]);
    expect(problems[0]!.message).toContain("binding missing");
  });
});

describe("instance counts against the containers' max_instances", () => {
  it("refuses CONTAINER_MAX_INSTANCES above max_instances, and past the schema's own bound", () => {
    const above = checkDeployTarget(ready({}, { CONTAINER_MAX_INSTANCES: "12" }));
    expect(above.map((p) => `${p.kind} ${p.setting}`)).toEqual(["invalid [env.production] vars.CONTAINER_MAX_INSTANCES"]);
    expect(above[0]!.message).toContain("CONTAINER_MAX_INSTANCES (12) is more than max_instances (8) of [[env.production.containers]] RenderNodeContainer");
    expect(found(ready({}, { CONTAINER_MAX_INSTANCES: "500" }))).toEqual(["invalid [env.production] vars.CONTAINER_MAX_INSTANCES"]);
    expect(found(ready({ containers: [{ ...CONTAINERS[0]!, maxInstances: 12 }] }, { CONTAINER_MAX_INSTANCES: "12" }))).toEqual([]);
  });

  it("refuses the container binding without a containers block", () => {
    expect(found(ready({ containers: [] }))).toEqual(["invalid [env.production] [[env.production.containers]]"]);
  });
});

describe("required secrets", () => {
  it("names every secret the Worker needs here that secrets.required does not declare", () => {
    const problems = checkDeployTarget(ready({ secretsRequired: undefined }));
    expect(problems.map((p) => `${p.kind} ${p.setting}`)).toEqual(["invalid [env.production] secrets.required", "invalid [env.production] secrets.required"]);
    expect(problems[0]!.message).toContain('TOKEN_SECRET (required but unset) is not declared: add "TOKEN_SECRET" to [env.production.secrets]');
    expect(problems[1]!.message).toContain("CONTAINER_NODE_KEY (required when RENDER_NODE_CONTAINER is bound");
    // Without containers the node key is not needed; a name the Worker does not read is refused.
    const noContainers = { bindings: BINDINGS.filter((b) => b !== "RENDER_NODE_CONTAINER"), containers: [] };
    expect(found(ready({ ...noContainers, secretsRequired: ["TOKEN_SECRET"] }))).toEqual([]);
    expect(found(ready({ secretsRequired: [...SECRETS, "TOKEN_SECRT"] }))).toEqual(["invalid [env.production] secrets.required"]);
  });

  it("only lists them at the top level, the local configuration npm start completes", () => {
    expect(checkDeployTarget(ready({ env: "", secretsRequired: undefined, routes: ["studio.acme.io", "acme-usercontent.net"] })).map((p) => p.kind)).toEqual([
      "unfinished",
      "unfinished",
    ]);
  });

  it("a real deploy checks them with wrangler secret list first, and says how to put the missing ones", () => {
    expect(commandLine(secretListStep(ready()))).toBe("npx wrangler secret list --env production --format json");
    expect(missingSecrets(ready(), [{ name: "TOKEN_SECRET", type: "secret_text" }])).toEqual(["CONTAINER_NODE_KEY"]);
    expect(missingSecrets(ready(), undefined)).toEqual(SECRETS);
    const message = missingSecretsMessage(ready(), SECRETS, "Worker not found");
    expect(message).toContain("npx wrangler secret put TOKEN_SECRET --env production\n  npx wrangler secret put CONTAINER_NODE_KEY --env production");
    expect(message).toContain("Worker not found");
  });
});

describe("npm run check:deploy on wrangler.toml with one setting wrong", () => {
  let copy = "";
  let shipped = "";

  beforeAll(async () => {
    // What check:deploy loads before it bundles anything: the scripts (which import the page runtime's build), the
    // Worker's configuration schema (and what it imports from worker/ and core/), package.json and wrangler.toml;
    // node_modules linked.
    copy = await mkdtemp(join(tmpdir(), "studio-check-deploy-"));
    for (const entry of ["scripts", "worker", "core", "page-runtime", "package.json"]) {
      await cp(join(ROOT, entry), join(copy, entry), { recursive: true, filter: (source) => !source.endsWith("/dist") });
    }
    // wrangler's config reader checks that the containers' image is there.
    await cp(join(ROOT, "render-node", "Dockerfile"), join(copy, "render-node", "Dockerfile"));
    await symlink(await realpath(join(ROOT, "node_modules")), join(copy, "node_modules"));
    shipped = await readFile(join(ROOT, "wrangler.toml"), "utf8");
  });

  afterAll(async () => {
    if (copy) await rm(copy, { recursive: true, force: true });
  });

  /** `npm run check:deploy` with `wrangler.toml`'s text `from` replaced by `to` (which must be there). */
  async function checkDeployWith(from: string, to: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
    expect(shipped).toContain(from);
    await writeFile(join(copy, "wrangler.toml"), shipped.replace(from, to));
    return new Promise((resolve) => {
      const child = spawn("npm", ["run", "check:deploy"], { cwd: copy, env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  }

  it.each([
    ['MAX_FILE_BYTES = "104857600", BASE_URL', 'MAX_FILE_BYTES = "100MB", BASE_URL', 'production: [env.production] vars.MAX_FILE_BYTES: MAX_FILE_BYTES: expected a positive integer number of bytes, got "100MB"'],
    ['CONTAINER_JOBS_PER_INSTANCE = "1"', 'CONTAINER_JOBS_PER_INSTANCE = "0"', 'production: [env.production] vars.CONTAINER_JOBS_PER_INSTANCE: CONTAINER_JOBS_PER_INSTANCE: expected a whole number from 1 to 64, got "0"'],
    ['CONTAINER_MAX_INSTANCES = "8"', 'CONTAINER_MAX_INSTANCES = "500"', 'production: [env.production] vars.CONTAINER_MAX_INSTANCES: CONTAINER_MAX_INSTANCES: expected a whole number from 1 to 64, got "500"'],
    ['CONTAINER_MAX_INSTANCES = "8"', 'CONTAINER_MAX_INSTANCES = "12"', "production: [env.production] vars.CONTAINER_MAX_INSTANCES: CONTAINER_MAX_INSTANCES (12) is more than max_instances (8)"],
    ['required = ["TOKEN_SECRET", "CONTAINER_NODE_KEY"]', 'required = ["TOKEN_SECRET"]', 'production: [env.production] secrets.required: CONTAINER_NODE_KEY (required when RENDER_NODE_CONTAINER is bound'],
  ])("fails for %s → %s, naming the setting", async (from, to, named) => {
    const run = await checkDeployWith(from, to);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toContain(named);
    expect(run.stderr).toContain("nothing bundled");
  }, 60_000);
});
