// The configuration of an env object, parsed once. workerd hands the same env object to every request an isolate
// serves, and Durable Objects get one env object of their own, shared by every instance in the isolate (measured in
// the workerd test pool: three requests, one parse; three DO instances of two classes, one env object, not the
// fetch handler's). So a WeakMap keyed by that object parses once for the Worker and once for its Durable Objects
// per isolate. A request's own env with some bindings wrapped (the D1 counter of the request log, the credential
// gate's bindings) is made by envWith, which hands it the configuration already parsed: every request makes one, and
// parsing the settings again each time would be work for nothing. An env built any other way ({ ...env, X }) is
// parsed on its own and dropped with it. A bad configuration is cached as its error, thrown on every read. `env` is any object: the Worker's Env is typed in
// worker/env.ts, which imports the schema from here, so naming it back would tie the two folders in a circle.
import type { Config } from "./config-types.ts";
import { ConfigError, parseConfig } from "./parse-config.ts";

const parsed = new WeakMap<object, Config | ConfigError>();

/** The configuration, or the ConfigError naming what is wrong with it. */
function resultOf(env: object): Config | ConfigError {
  let result = parsed.get(env);
  if (result === undefined) {
    try {
      result = parseConfig(env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      result = error;
    }
    parsed.set(env, result);
  }
  return result;
}

/** The typed, frozen configuration of `env`; throws ConfigError when a setting is bad or a binding is missing. */
export function configOf(env: object): Config {
  const result = resultOf(env);
  if (result instanceof ConfigError) throw result;
  return result;
}

/**
 * `env` with some bindings replaced by objects that stand for them (a wrapper around the same D1 database, bucket or
 * namespace), sharing `env`'s parsed configuration: the settings are the same strings, so they are not read again.
 * Never for a changed setting: build that env by hand and it is parsed on its own.
 */
export function envWith<E extends object>(env: E, bindings: Partial<E>): E {
  const out = { ...env, ...bindings };
  parsed.set(out, resultOf(env));
  return out;
}

/**
 * Drops `env`'s parsed configuration, so the next read parses it again. Only for tests that change the env object
 * the Worker shares with them in place (test/worker/idea-helpers.ts, setEnv); deployed settings change only with a
 * new deployment, which brings a new isolate.
 */
export function forgetConfig(env: object): void {
  parsed.delete(env);
}

/** What is wrong with `env`'s configuration, or null when it serves. */
export function configProblem(env: object): ConfigError | null {
  const result = resultOf(env);
  return result instanceof ConfigError ? result : null;
}
