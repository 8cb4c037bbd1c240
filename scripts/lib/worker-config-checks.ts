// A wrangler.toml environment read through the Worker's own configuration schema (worker/config/): its variables,
// its bindings and the secrets it declares (`secrets.required`) make a stand-in of the env object the deployed
// Worker gets, and whatever parseConfig refuses there is a deploy problem naming the setting, since the Worker would
// answer every request 500 `misconfigured` with it. No rule is repeated here: a new setting or rule in worker/config/
// is checked at once. Beyond the schema, only what needs the rest of wrangler.toml: the Worker's instance counts
// against the containers' `max_instances`. Pure.
import { ConfigError, parseConfig, parseSetting } from "../../worker/config/parse-config.ts";
import { BINDINGS, SETTINGS, type SettingName } from "../../worker/config/settings.ts";
import type { Config } from "../../worker/config/config-types.ts";
import type { ConfigProblem, DeployTarget } from "./deploy-types.ts";

/**
 * What stands in for a declared secret: its value is known only to Cloudflare (a real deploy checks it exists,
 * `wrangler secret list`), so the schema is asked only whether the Worker needs it.
 */
const SECRET_STAND_IN = "s".repeat(64);
/** The binding whose containers CONTAINER_MIN_INSTANCES / CONTAINER_MAX_INSTANCES count. */
const CONTAINER_BINDING = "RENDER_NODE_CONTAINER";

const isSetting = (name: string): name is SettingName => Object.hasOwn(SETTINGS, name);
const isSecret = (name: string) => isSetting(name) && SETTINGS[name].kind === "secret";

/** The env object the deployed Worker would get from `target`, as far as wrangler.toml says. */
export function standInEnv(target: DeployTarget): Record<string, unknown> {
  const env: Record<string, unknown> = { ...target.vars };
  for (const binding of target.bindings) env[binding] = {};
  for (const secret of target.secretsRequired ?? []) env[secret] ??= SECRET_STAND_IN;
  return env;
}

/** The Worker's configuration of `target`, or what the schema says is wrong with it. */
function parse(target: DeployTarget): Config | ConfigError {
  try {
    return parseConfig(standInEnv(target));
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

/**
 * The Worker's configuration of `target` and the secrets it needs that `target` does not declare, each with the
 * schema's problem. The schema checks its rules between settings only once every setting reads, so a secret that
 * a rule needs (CONTAINER_NODE_KEY with containers bound) shows only after the required ones are there: each
 * missing secret is stood in and the schema asked again, so that one run names them all.
 */
function parseWithSecrets(target: DeployTarget): { parsed: Config | ConfigError; missing: Map<string, string> } {
  const missing = new Map<string, string>();
  for (;;) {
    const parsed = parse({ ...target, secretsRequired: [...(target.secretsRequired ?? []), ...missing.keys()] });
    const problems = parsed instanceof ConfigError ? parsed.problems : [];
    const more = problems.filter((p) => isSecret(p.setting) && !Object.hasOwn(target.vars, p.setting) && !missing.has(p.setting) && !target.secretsRequired?.includes(p.setting));
    if (more.length === 0) return { parsed, missing };
    for (const p of more) missing.set(p.setting, p.problem);
  }
}

/** Every problem the Worker's schema finds in `target`, each at the place in wrangler.toml where it is fixed. */
export function checkWorkerConfig(target: DeployTarget, section: string): ConfigProblem[] {
  const { parsed, missing } = parseWithSecrets(target);
  const problems: ConfigProblem[] = [];
  // The top level is the local configuration: npm start passes TOKEN_SECRET itself, so undeclared secrets are only
  // listed there, never failed.
  const secretKind = target.env ? "invalid" : "unfinished";
  const secretsTable = target.env ? `[env.${target.env}.secrets]` : "[secrets]";
  const declared = new Set(target.secretsRequired ?? []);
  if (parsed instanceof ConfigError) {
    for (const { setting, problem } of parsed.problems) {
      if (Object.hasOwn(BINDINGS, setting)) {
        problems.push({ kind: "invalid", setting: `${section} ${setting} binding`, message: `${setting}: ${problem}` });
      } else if (isSecret(setting) && !Object.hasOwn(target.vars, setting)) {
        // A secret's value is not in wrangler.toml: undeclared ones are listed below, declared ones are stand-ins.
        continue;
      } else {
        problems.push({
          kind: "invalid",
          setting: `${section} vars.${setting}`,
          message: `${setting}: ${problem}. The Worker refuses this configuration: every request would answer 500 misconfigured (docs/configuration.md)`,
        });
      }
    }
  }
  for (const [setting, problem] of missing) {
    problems.push({
      kind: secretKind,
      setting: `${section} secrets.required`,
      message:
        `${setting} (${problem}) is not declared: add "${setting}" to ${secretsTable} required = [...] so that wrangler refuses ` +
        `to deploy without it, and put it first with \`npx wrangler secret put ${setting}${target.env ? ` --env ${target.env}` : ""}\` (docs/deploy.md)`,
    });
  }
  for (const name of declared) {
    if (isSecret(name)) continue;
    problems.push({ kind: "invalid", setting: `${section} secrets.required`, message: `"${name}" is not a secret the Worker reads (docs/configuration.md lists them)` });
  }
  return [...problems, ...checkContainerCounts(target, section, parsed)];
}

/** A setting's value from the variables alone, or undefined when the schema refuses it (reported already). */
function settingOf<K extends SettingName>(target: DeployTarget, name: K, formerName?: string): Config[K] | undefined {
  try {
    return parseSetting(name, target.vars[name] ?? (formerName ? target.vars[formerName] : undefined));
  } catch (error) {
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
}

/** CONTAINER_MAX_INSTANCES within the `max_instances` Cloudflare enforces on the render-node containers. */
function checkContainerCounts(target: DeployTarget, section: string, parsed: Config | ConfigError): ConfigProblem[] {
  if (!target.bindings.includes(CONTAINER_BINDING)) return [];
  const table = target.env ? `[[env.${target.env}.containers]]` : "[[containers]]";
  const container = (target.containers ?? []).find((c) => c.binding === CONTAINER_BINDING);
  if (!container) {
    return [{
      kind: "invalid",
      setting: `${section} ${table}`,
      message: `${CONTAINER_BINDING} is bound but no ${table} runs its class: add one (image, instance_type, max_instances) or remove the binding`,
    }];
  }
  const max = parsed instanceof ConfigError ? settingOf(target, "CONTAINER_MAX_INSTANCES", "CONTAINER_POOL_SIZE") : parsed.CONTAINER_MAX_INSTANCES;
  if (container.maxInstances === undefined || max === undefined || max <= container.maxInstances) return [];
  return [{
    kind: "invalid",
    setting: `${section} vars.CONTAINER_MAX_INSTANCES`,
    message:
      `CONTAINER_MAX_INSTANCES (${max}) is more than max_instances (${container.maxInstances}) of ${table} ${container.className}: ` +
      `Cloudflare would never start the instances past it while the Worker counts on them; lower it or raise max_instances`,
  }];
}
