// Rules between settings, checked once each setting is readable on its own. A broken rule is a problem naming the
// setting to change, like any other. Each rule's `rule` line is listed in docs/configuration.md.
import type { Config, ConfigProblem } from "./config-types.ts";
import type { BindingName, SettingName } from "./settings.ts";

/** What a rule may ask of the environment beyond the parsed values. */
export interface RuleContext {
  /** Whether a binding is present. */
  bound(binding: BindingName): boolean;
  /** Whether a setting was set (rather than left to its default). */
  isSet(name: SettingName): boolean;
}

export interface SettingRule {
  /** The rule, for the docs. */
  rule: string;
  check(config: Config, env: RuleContext): ConfigProblem[];
}

/** A sign-in provider's id and secret: both or neither, since one without the other cannot sign anyone in. */
function pair(id: "GITHUB_CLIENT_ID" | "GOOGLE_CLIENT_ID", secret: "GITHUB_CLIENT_SECRET" | "GOOGLE_CLIENT_SECRET", provider: string): SettingRule {
  return {
    rule: `${id} and ${secret} are set together (${provider} sign-in) or not at all.`,
    check(config) {
      const [hasId, hasSecret] = [config[id] !== undefined, config[secret] !== undefined];
      if (hasId === hasSecret) return [];
      const [missing, present] = hasId ? [secret, id] : [id, secret];
      return [{ setting: missing, problem: `unset while ${present} is set; set both (${provider} sign-in) or neither` }];
    },
  };
}

export const SETTING_RULES: readonly SettingRule[] = [
  pair("GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET", "GitHub"),
  pair("GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET", "Google"),
  {
    rule: "CONTENT_URL is on another host than BASE_URL: the Worker tells content from API requests by host.",
    check(config) {
      const host = new URL(config.BASE_URL).host;
      if (new URL(config.CONTENT_URL).host !== host) return [];
      return [{ setting: "CONTENT_URL", problem: `must be on another host than BASE_URL (both are ${host}); user content needs a site of its own` }];
    },
  },
  {
    rule: "CONTAINER_MIN_INSTANCES is at most CONTAINER_MAX_INSTANCES.",
    check(config) {
      if (config.CONTAINER_MIN_INSTANCES <= config.CONTAINER_MAX_INSTANCES) return [];
      return [{ setting: "CONTAINER_MIN_INSTANCES", problem: `${config.CONTAINER_MIN_INSTANCES} is more than CONTAINER_MAX_INSTANCES (${config.CONTAINER_MAX_INSTANCES})` }];
    },
  },
  {
    rule: "With RENDER_NODE_CONTAINER bound, BASE_URL and CONTAINER_NODE_KEY are set: the containers reach the Worker at BASE_URL with that key.",
    check(config, env) {
      if (!env.bound("RENDER_NODE_CONTAINER")) return [];
      const problems: ConfigProblem[] = [];
      if (!env.isSet("BASE_URL")) problems.push({ setting: "BASE_URL", problem: "required when RENDER_NODE_CONTAINER is bound: render containers reach the Worker there" });
      if (config.CONTAINER_NODE_KEY === undefined) {
        problems.push({ setting: "CONTAINER_NODE_KEY", problem: "required when RENDER_NODE_CONTAINER is bound: `npm run node-key -- containers --remote`, then `wrangler secret put CONTAINER_NODE_KEY`" });
      }
      return problems;
    },
  },
];
