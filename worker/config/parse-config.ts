// Parses an environment against the schema (settings.ts): each setting read from its text, its default applied when
// it is unset or empty, the bindings checked for presence, then the rules between settings (setting-rules.ts). Every
// problem is collected, each naming its setting; any problem makes the whole configuration an error, never a
// silent fallback. Pure; configOf (config-of.ts) caches the result per env object.
import { BINDINGS, RETIRED_SETTINGS, SETTINGS, type BindingName, type SettingName } from "./settings.ts";
import { SETTING_RULES } from "./setting-rules.ts";
import type { ValueKind } from "./value-kinds.ts";
import type { Config, ConfigProblem } from "./config-types.ts";

/** A configuration that cannot be served: its message names each setting and its problem. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];
  // No parameter property: Node's type stripping (scripts, tests of the node project) does not take them.
  constructor(problems: readonly ConfigProblem[]) {
    super(problems.map((p) => `${p.setting}: ${p.problem}`).join("; "));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];
const BINDING_NAMES = Object.keys(BINDINGS) as BindingName[];

/**
 * A variable's text, or undefined when it is unset or empty (an empty value counts as unset, as wrangler.toml's
 * `ADMIN_USER_IDS = ""`). wrangler.toml may give numbers and booleans too: they are read as their text.
 */
function textOf(value: unknown): { text: string | undefined } | { problem: string } {
  if (value === undefined || value === null) return { text: undefined };
  if (typeof value === "number" || typeof value === "boolean") return { text: String(value) };
  if (typeof value !== "string") return { problem: `expected text, got ${Array.isArray(value) ? "a list" : `a value of type ${typeof value}`}` };
  return { text: value.trim() === "" ? undefined : value };
}

/** Whether a variable is set at all (a value of the wrong type is set, and wrong). */
function isPresent(value: unknown): boolean {
  const read = textOf(value);
  return "problem" in read || read.text !== undefined;
}

/** The setting's value from `value` (its variable's content), or its problem. */
function readSetting(name: SettingName, value: unknown): { value: unknown } | { problem: string } {
  const spec: { type: ValueKind<unknown>; default?: string; required?: true } = SETTINGS[name];
  const read = textOf(value);
  if ("problem" in read) return read;
  const text = read.text ?? spec.default;
  if (text === undefined) return spec.required ? { problem: "required but unset" } : { value: undefined };
  const kind = spec.type.read(text);
  return kind.ok ? { value: kind.value } : { problem: kind.message };
}

/** The variable a setting is read from in `env`: its own name, or its former name when only that is set. */
function sourceOf(env: Readonly<Record<string, unknown>>, name: SettingName): string {
  const former: string | undefined = (SETTINGS[name] as { formerName?: string }).formerName;
  return former !== undefined && !isPresent(env[name]) && isPresent(env[former]) ? former : name;
}

/** Freezes a value and everything in it, so no caller can change the shared configuration. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !ArrayBuffer.isView(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** One setting's value from its variable's content; throws ConfigError naming it when the content is bad. */
export function parseSetting<K extends SettingName>(name: K, value: unknown): Config[K] {
  const read = readSetting(name, value);
  if ("problem" in read) throw new ConfigError([{ setting: name, problem: read.problem }]);
  return deepFreeze(read.value) as Config[K];
}

/** A setting's default value (undefined for one without a default). */
export function defaultOf<K extends SettingName>(name: K): Config[K] {
  return parseSetting(name, undefined);
}

/** The configuration of `env` (the Worker's env object: bindings, vars and secrets); throws ConfigError. */
export function parseConfig(env: object): Config {
  const raw = env as Readonly<Record<string, unknown>>;
  const problems: ConfigProblem[] = [];
  const config: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const source = sourceOf(raw, name);
    const read = readSetting(name, raw[source]);
    if ("problem" in read) problems.push({ setting: source, problem: read.problem });
    else config[name] = read.value;
  }
  for (const [name, problem] of Object.entries(RETIRED_SETTINGS)) if (isPresent(raw[name])) problems.push({ setting: name, problem });
  for (const name of BINDING_NAMES) {
    const spec = BINDINGS[name];
    if (spec.required && (raw[name] === undefined || raw[name] === null)) {
      problems.push({ setting: name, problem: `binding missing: declare it in wrangler.toml (${spec.declaredBy})` });
    }
  }
  // Rules between settings only make sense once each setting is readable.
  if (problems.length === 0) {
    const bound = (binding: BindingName) => raw[binding] !== undefined && raw[binding] !== null;
    const isSet = (name: SettingName) => isPresent(raw[sourceOf(raw, name)]);
    for (const rule of SETTING_RULES) problems.push(...rule.check(config as Config, { bound, isSet }));
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(config as Config);
}
