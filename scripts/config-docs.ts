// `npm run config:docs`: writes docs/configuration.md and .dev.vars.example from the Worker's configuration schema
// (worker/config/settings.ts). Run it after changing the schema; test/node/config-docs.test.ts fails until you do.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { CONFIGURATION_DOC, DEV_VARS_EXAMPLE, renderConfigurationDoc, renderDevVarsExample } from "./lib/config-docs.ts";
import { ROOT } from "./lib/wrangler.ts";

for (const [path, text] of [
  [CONFIGURATION_DOC, renderConfigurationDoc()],
  [DEV_VARS_EXAMPLE, renderDevVarsExample()],
] as const) {
  await mkdir(dirname(join(ROOT, path)), { recursive: true });
  await writeFile(join(ROOT, path), text);
  console.log(`wrote ${path}`);
}
