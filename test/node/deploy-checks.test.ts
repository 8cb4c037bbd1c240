// The checks `npm run deploy` and CI's check:deploy make on a wrangler.toml environment (scripts/lib/deploy-checks.ts):
// the placeholder D1 id and example domains (refused by a deploy, listed by CI), and what is wrong whoever deploys it
// (same-site origins, unrouted hosts, non-https or non-origin URLs, dev sign-in). Pure: no wrangler, no network.
import { describe, expect, it } from "vitest";
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
import { commandLine, remoteSteps } from "../../scripts/lib/deploy-steps.ts";

const DB_ID = "6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b";

/** A production environment ready to deploy, changed by `overrides`. */
function ready(overrides: Partial<DeployTarget> = {}, vars: Record<string, unknown> = {}): DeployTarget {
  return {
    env: "production",
    databases: [{ binding: "DB", name: "studio", id: DB_ID }],
    routes: ["studio.acme.io", "acme-usercontent.net"],
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
