// The configuration documents cannot drift from the schema (worker/config/settings.ts): docs/configuration.md and
// .dev.vars.example are exactly what `npm run config:docs` generates, and every environment of wrangler.toml sets
// only settings the schema knows, to values it accepts.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { ConfigError, parseSetting } from "../../worker/config/parse-config.ts";
import { SETTINGS, type SettingName } from "../../worker/config/settings.ts";
import { CONFIGURATION_DOC, DEV_VARS_EXAMPLE, renderConfigurationDoc, renderDevVarsExample } from "../../scripts/lib/config-docs.ts";
import { wranglerEnvironments } from "../../scripts/lib/worker-bundle.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";

const committed = (path: string) => readFile(join(ROOT, path), "utf8");
const STALE = "stale: run `npm run config:docs` and commit the result";

describe("configuration documents", () => {
  it("docs/configuration.md is what the schema generates, a row for every setting and binding", async () => {
    const doc = renderConfigurationDoc();
    expect(await committed(CONFIGURATION_DOC), STALE).toBe(doc);
    for (const name of Object.keys(SETTINGS)) expect(doc).toMatch(new RegExp(`^\\| \`${name}\` \\| (var|secret) \\|`, "m"));
    expect(doc).toMatch(/^\| `DB` \| binding \| required \|/m);
  });

  it(".dev.vars.example is what the schema generates: every setting commented out, so copying it changes nothing", async () => {
    const example = renderDevVarsExample();
    expect(await committed(DEV_VARS_EXAMPLE), STALE).toBe(example);
    for (const name of Object.keys(SETTINGS)) expect(example).toContain(`\n# ${name}=`);
    expect(example.split("\n").filter((line) => line !== "" && !line.startsWith("#"))).toEqual([]);
  });

  it("README's configuration section points at the generated table instead of keeping one of its own", async () => {
    const readme = await committed("README.md");
    expect(readme).toContain("docs/configuration.md");
    expect(readme).not.toMatch(/^\| `MAX_STORAGE_BYTES`/m);
  });
});

describe("wrangler.toml", () => {
  it("every environment sets only known settings, to values the schema accepts", async () => {
    const problems: string[] = [];
    for (const env of await wranglerEnvironments()) {
      const vars = unstable_readConfig({ config: join(ROOT, "wrangler.toml"), env: env || undefined }).vars;
      for (const [name, value] of Object.entries(vars)) {
        if (!(name in SETTINGS)) problems.push(`${env || "top level"}: ${name} is not a setting of worker/config/settings.ts`);
        else {
          try {
            parseSetting(name as SettingName, value);
          } catch (error) {
            if (!(error instanceof ConfigError)) throw error;
            problems.push(`${env || "top level"}: ${error.message}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("CONTAINER_MAX_INSTANCES never asks for more containers than max_instances allows", async () => {
    for (const env of await wranglerEnvironments()) {
      const config = unstable_readConfig({ config: join(ROOT, "wrangler.toml"), env: env || undefined });
      const allowed = config.containers?.[0]?.max_instances;
      if (allowed === undefined) continue;
      expect(parseSetting("CONTAINER_MAX_INSTANCES", config.vars.CONTAINER_MAX_INSTANCES), env).toBeLessThanOrEqual(allowed);
    }
  });
});
