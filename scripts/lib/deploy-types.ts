// The shapes the deploy checks share: what an environment of wrangler.toml is made of (deploy-target.ts reads it),
// and one problem a check finds (deploy-checks.ts, worker-config-checks.ts).

/** What a deploy of one environment is made of, as far as these checks care. */
export interface DeployTarget {
  /** The `[env.NAME]` name; "" for the top level. */
  env: string;
  databases: { binding: string; name: string; id: string | undefined }[];
  /** KV namespaces (OAUTH_KV, worker/oauth/); absent where a test does not care. */
  kvNamespaces?: { binding: string; id: string | undefined }[];
  vars: Record<string, unknown>;
  /** Route patterns (custom domains and zone routes alike), e.g. "studio.example.com" or "example.com/*". */
  routes: string[];
  /** The names of every binding the environment declares (D1, KV, R2, Durable Objects, assets, version metadata). */
  bindings: string[];
  /** `[[containers]]`: each one's class, the Durable Object binding of that class, and its `max_instances`. */
  containers?: { className: string; binding: string | undefined; maxInstances: number | undefined }[];
  /** `secrets.required`: the secrets wrangler refuses to deploy without; undefined when there is no `secrets` table. */
  secretsRequired?: string[];
}

/**
 * One thing to change before deploying. "unfinished": a repository default every operator replaces (refused by
 * `npm run deploy`, fine for CI's dry run). "invalid": wrong whoever deploys it (refused by both).
 */
export interface ConfigProblem {
  kind: "unfinished" | "invalid";
  /** Where in wrangler.toml, e.g. `[env.production] vars.BASE_URL`. */
  setting: string;
  /** What is wrong and how to change it. */
  message: string;
}
