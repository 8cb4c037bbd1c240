// What a wrangler.toml environment must look like before it is deployed: pure checks on values read from it
// (scripts/lib/deploy-target.ts reads them). Everything the Worker itself refuses comes from its own configuration
// schema (worker-config-checks.ts); the rules here are the deploy's own, stricter ones (https, real domains, two
// sites, routes, no dev sign-in). `npm run deploy` refuses on any problem; CI's check (check-deploy.ts)
// fails only on "invalid" ones, since the repository's own defaults (placeholder database id, example domains) are
// "unfinished" by design: every operator fills them in (docs/deploy.md).
import { getDomain } from "tldts";
import { checkWorkerConfig } from "./worker-config-checks.ts";
import type { ConfigProblem, DeployTarget } from "./deploy-types.ts";

export type { ConfigProblem, DeployTarget };

/** The D1 database id wrangler.toml ships with: it names no database. */
export const PLACEHOLDER_DATABASE_ID = "00000000-0000-0000-0000-000000000000";
/** The KV namespace id wrangler.toml ships with (OAUTH_KV): it names no namespace. */
export const PLACEHOLDER_KV_ID = "00000000000000000000000000000000";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Names reserved for examples and tests (RFC 2606, RFC 6761): nobody's studio lives there. */
const EXAMPLE_DOMAINS = new Set(["example.com", "example.net", "example.org"]);
const RESERVED_TLDS = new Set(["example", "test", "invalid", "localhost"]);

/**
 * Every problem with `target`, in wrangler.toml order (databases, then the two origins, then routes), then what the
 * Worker's schema refuses. One problem per setting: where a deploy rule already names a setting, its wording stands.
 */
export function checkDeployTarget(target: DeployTarget): ConfigProblem[] {
  const own = [...checkDatabases(target), ...checkKvNamespaces(target), ...checkOrigins(target), ...checkRoutes(target), ...checkDevLogin(target)];
  const named = new Set(own.map((p) => p.setting));
  return [...own, ...checkWorkerConfig(target, envSection(target.env)).filter((p) => !named.has(p.setting))];
}

/** The `[env.NAME]` heading a setting lives under, for messages. */
export function envSection(env: string): string {
  return env ? `[env.${env}]` : "the top level";
}

/** Each D1 database needs the id of a database that exists (`wrangler d1 create` prints it). */
function checkDatabases({ env, databases }: DeployTarget): ConfigProblem[] {
  const table = env ? `[[env.${env}.d1_databases]]` : "[[d1_databases]]";
  return databases.flatMap((db): ConfigProblem[] => {
    const setting = `${table} ${db.binding} database_id`;
    const create = `create it with \`npx wrangler d1 create ${db.name}\` and put the database_id it prints in wrangler.toml's ${table} (binding "${db.binding}")`;
    if (!db.id) return [{ kind: "invalid", setting, message: `D1 database "${db.name}" has no database_id: ${create}` }];
    if (db.id === PLACEHOLDER_DATABASE_ID) {
      return [{ kind: "unfinished", setting, message: `D1 database "${db.name}" still has the placeholder database_id ${db.id}: ${create}` }];
    }
    if (!UUID.test(db.id)) {
      return [{ kind: "invalid", setting, message: `database_id "${db.id}" of D1 database "${db.name}" is not a D1 database id (a UUID; \`npx wrangler d1 list\` shows yours)` }];
    }
    return [];
  });
}

const KV_ID = /^[0-9a-f]{32}$/i;

/** Each KV namespace needs the id of a namespace that exists (`wrangler kv namespace create` prints it). */
function checkKvNamespaces({ env, kvNamespaces = [] }: DeployTarget): ConfigProblem[] {
  const table = env ? `[[env.${env}.kv_namespaces]]` : "[[kv_namespaces]]";
  return kvNamespaces.flatMap((kv): ConfigProblem[] => {
    const setting = `${table} ${kv.binding} id`;
    const create = `create it with \`npx wrangler kv namespace create ${kv.binding}\` and put the id it prints in wrangler.toml's ${table} (binding "${kv.binding}")`;
    if (!kv.id) return [{ kind: "invalid", setting, message: `KV namespace "${kv.binding}" has no id: ${create}` }];
    if (kv.id === PLACEHOLDER_KV_ID) return [{ kind: "unfinished", setting, message: `KV namespace "${kv.binding}" still has the placeholder id ${kv.id}: ${create}` }];
    if (!KV_ID.test(kv.id)) return [{ kind: "invalid", setting, message: `id "${kv.id}" of KV namespace "${kv.binding}" is not a KV namespace id (32 hex digits; \`npx wrangler kv namespace list\` shows yours)` }];
    return [];
  });
}

/** BASE_URL and CONTENT_URL: set, https origins, real domains, and two different sites. */
function checkOrigins(target: DeployTarget): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const hosts: Partial<Record<"BASE_URL" | "CONTENT_URL", string>> = {};
  for (const name of ["BASE_URL", "CONTENT_URL"] as const) {
    const setting = `${envSection(target.env)} vars.${name}`;
    const role = name === "BASE_URL" ? "the API and dashboard" : "user content";
    const value = target.vars[name];
    if (value === undefined || value === "") {
      problems.push({ kind: "unfinished", setting, message: `${name} is not set: set it to the https origin of ${role} (the studio's links are built from it; unset, they point at a local address)` });
      continue;
    }
    const url = typeof value === "string" && URL.canParse(value) ? new URL(value) : null;
    if (!url || url.protocol !== "https:") {
      problems.push({ kind: "invalid", setting, message: `${name} ${JSON.stringify(value)} is not an https:// URL: a deployed studio is served over HTTPS only` });
      continue;
    }
    // Whether it is an origin at all (no path, query or credentials) is the Worker's own rule: its schema says.
    if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) continue;
    hosts[name] = url.hostname;
    if (isExampleHost(url.hostname)) {
      problems.push({ kind: "unfinished", setting, message: `${name} ${url.origin} is an example domain: set it to the https origin of ${role} on your own domain` });
    }
  }
  const { BASE_URL: base, CONTENT_URL: content } = hosts;
  if (base && content && isSameSite(base, content)) {
    problems.push({
      kind: "invalid",
      setting: `${envSection(target.env)} vars.CONTENT_URL`,
      message:
        `BASE_URL (${base}) and CONTENT_URL (${content}) are on the same site (${registrableDomain(base)}): user content ` +
        `must be served from a registrable domain of its own, not a subdomain of the studio's, so that a composition's ` +
        `script is cross-site to the dashboard and API (docs/deploy.md, "Choosing the two domains")`,
    });
  }
  return problems;
}

/** Both origins must be routed to this Worker, and no route may still name an example domain. */
function checkRoutes(target: DeployTarget): ConfigProblem[] {
  const setting = `${envSection(target.env)} routes`;
  const problems: ConfigProblem[] = target.routes
    .filter((pattern) => isExampleHost(routeHost(pattern).replace(/^\*\.?/, "")))
    .map((pattern) => ({
      kind: "unfinished" as const,
      setting,
      message: `route "${pattern}" is an example domain: route the hosts of BASE_URL and CONTENT_URL instead`,
    }));
  for (const name of ["BASE_URL", "CONTENT_URL"] as const) {
    const value = target.vars[name];
    if (typeof value !== "string" || !URL.canParse(value)) continue;
    const host = new URL(value).hostname;
    if (!target.routes.some((pattern) => routeServesHost(pattern, host))) {
      problems.push({
        kind: "invalid",
        setting,
        message: `no route serves ${name}'s host ${host}: add { pattern = "${host}", custom_domain = true } to ${setting}`,
      });
    }
  }
  return problems;
}

/** Development sign-in lets anyone sign in under any name: never on a deployed studio. */
function checkDevLogin(target: DeployTarget): ConfigProblem[] {
  if (target.vars.DEV_LOGIN !== "true") return [];
  return [{
    kind: "invalid",
    setting: `${envSection(target.env)} vars.DEV_LOGIN`,
    message: `DEV_LOGIN is "true": anyone could sign in under any name on the deployed studio; set it to "false" (npm start turns it on for local runs)`,
  }];
}

/** The host part of a route pattern ("example.com/*" → "example.com"). */
function routeHost(pattern: string): string {
  return pattern.split("/")[0]!.toLowerCase();
}

/** True when requests for every path of `host` reach the Worker through this route pattern. */
export function routeServesHost(pattern: string, host: string): boolean {
  const slash = pattern.indexOf("/");
  const path = slash === -1 ? "" : pattern.slice(slash);
  if (path !== "" && path !== "/*") return false;
  const patternHost = routeHost(pattern);
  const wanted = host.toLowerCase();
  // "*example.com" matches the apex and its subdomains, "*.example.com" only subdomains.
  if (patternHost.startsWith("*")) return wanted.endsWith(patternHost.slice(1));
  return patternHost === wanted;
}

/**
 * The registrable domain ("site") of a host, as browsers read it from the Public Suffix List, its private section
 * included: `studio.example.co.uk` → `example.co.uk`, `one.github.io` → `one.github.io`. An IP address is its own
 * site.
 */
export function registrableDomain(host: string): string {
  const name = host.toLowerCase().replace(/\.$/, "");
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}

/** True when browsers treat the two hosts as one site. */
export function isSameSite(a: string, b: string): boolean {
  return registrableDomain(a) === registrableDomain(b);
}

/** True for example.com/.net/.org and their subdomains, and names under .example, .test, .invalid, .localhost. */
export function isExampleHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  const tld = name.split(".").at(-1)!;
  return EXAMPLE_DOMAINS.has(registrableDomain(name)) || RESERVED_TLDS.has(tld);
}
