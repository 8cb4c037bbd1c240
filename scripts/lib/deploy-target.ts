// Reads one environment of wrangler.toml the way wrangler itself resolves it (its own config reader: environments
// do not inherit bindings, vars or routes), reduced to what the deploy checks need (deploy-checks.ts).
import { join } from "node:path";
import * as z from "zod";
import type { DeployTarget } from "./deploy-types.ts";
import { ROOT } from "./wrangler.ts";

const route = z.union([z.string(), z.object({ pattern: z.string() })]);
/** The part of wrangler's resolved configuration the checks read (its own types are not published with it). */
const resolvedConfig = z.object({
  name: z.string().optional(),
  d1_databases: z.array(z.object({ binding: z.string(), database_name: z.string().optional(), database_id: z.string().optional() })),
  kv_namespaces: z.array(z.object({ binding: z.string(), id: z.string().optional() })).optional(),
  vars: z.record(z.string(), z.unknown()),
  routes: z.array(route).optional(),
  route: route.optional(),
  r2_buckets: z.array(z.object({ binding: z.string() })).optional(),
  durable_objects: z.object({ bindings: z.array(z.object({ name: z.string(), class_name: z.string() })) }).optional(),
  assets: z.object({ binding: z.string().optional() }).optional(),
  version_metadata: z.object({ binding: z.string() }).optional(),
  containers: z.array(z.object({ class_name: z.string(), max_instances: z.number().optional() })).optional(),
  secrets: z.object({ required: z.array(z.string()).optional() }).optional(),
});

/** The resolved `env` ("" for the top level) of wrangler.toml, plus the Worker's name (environments add `-env`). */
export async function readDeployTarget(env: string): Promise<DeployTarget & { workerName: string }> {
  // Loaded on demand: wrangler's module takes seconds to import, and only the deploy scripts need it.
  const { unstable_readConfig } = await import("wrangler");
  const raw: unknown = unstable_readConfig({ config: join(ROOT, "wrangler.toml"), ...(env ? { env } : {}) }, { hideWarnings: true });
  const config = resolvedConfig.parse(raw);
  const routes = [...(config.routes ?? []), ...(config.route ? [config.route] : [])];
  return {
    env,
    workerName: config.name ?? "",
    databases: config.d1_databases.map((db) => ({ binding: db.binding, name: db.database_name ?? db.binding, id: db.database_id })),
    kvNamespaces: (config.kv_namespaces ?? []).map((kv) => ({ binding: kv.binding, id: kv.id })),
    vars: config.vars,
    routes: routes.map((r) => (typeof r === "string" ? r : r.pattern)),
    bindings: [
      ...config.d1_databases.map((db) => db.binding),
      ...(config.kv_namespaces ?? []).map((kv) => kv.binding),
      ...(config.r2_buckets ?? []).map((r2) => r2.binding),
      ...(config.durable_objects?.bindings ?? []).map((d) => d.name),
      ...(config.assets?.binding ? [config.assets.binding] : []),
      ...(config.version_metadata ? [config.version_metadata.binding] : []),
    ],
    containers: (config.containers ?? []).map((c) => ({
      className: c.class_name,
      binding: config.durable_objects?.bindings.find((d) => d.class_name === c.class_name)?.name,
      maxInstances: c.max_instances,
    })),
    secretsRequired: config.secrets?.required,
  };
}
