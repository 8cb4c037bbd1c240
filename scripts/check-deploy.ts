// CI's deploy check: no environment's configuration is invalid (scripts/lib/deploy-checks.ts: what the Worker's own
// configuration schema refuses, instance counts past the containers' max_instances, undeclared required secrets,
// same-site origins, unrouted hosts, dev sign-in on), then every environment of wrangler.toml bundles as `wrangler
// deploy` would (a dry run: no network, no Docker) and the Worker script stays within its size budget. The repository's own
// placeholders (D1 id, example domains) are listed, not failed: `npm run deploy` refuses them. Fails with the figures.
//   node scripts/check-deploy.ts
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkDeployTarget } from "./lib/deploy-checks.ts";
import { readDeployTarget } from "./lib/deploy-target.ts";
import { bundleWorker, wranglerEnvironments } from "./lib/worker-bundle.ts";

/** Gzipped Worker script, the figure Cloudflare's size limit and cold starts depend on. */
export const BUNDLE_BUDGET_GZIP_BYTES = 500 * 1024;

const environments = await wranglerEnvironments();
// The configurations first, all of them: one that the Worker would refuse fails the check before anything is bundled.
let failed = false;
for (const env of environments) {
  const problems = checkDeployTarget(await readDeployTarget(env));
  const invalid = problems.filter((p) => p.kind === "invalid");
  failed ||= invalid.length > 0;
  for (const p of invalid) console.error(`${env || "default"}: ${p.setting}: ${p.message}`);
  // The top level is the local configuration (npm start), never deployed as is: its unset origins are expected.
  const unfinished = env ? problems.filter((p) => p.kind === "unfinished").map((p) => p.setting) : [];
  if (unfinished.length > 0) console.log(`${env}: left for the operator (npm run deploy refuses them): ${[...new Set(unfinished)].join(", ")}`);
}
if (failed) {
  console.error("check:deploy: wrangler.toml is not deployable as above (nothing bundled).");
  process.exit(1);
}
for (const env of environments) {
  const dir = await mkdtemp(join(tmpdir(), "studio-deploy-"));
  try {
    const bundle = await bundleWorker(dir, env);
    const over = bundle.gzipBytes > BUNDLE_BUDGET_GZIP_BYTES;
    failed ||= over;
    const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    console.log(
      `${env || "default"}: dry run ok, Worker ${kib(bundle.bytes)}, gzip ${kib(bundle.gzipBytes)} of ${kib(BUNDLE_BUDGET_GZIP_BYTES)}${over ? "  OVER BUDGET" : ""}`,
    );
    if (over) console.error("The Worker bundle passed its budget: see bench/startup.ts for what it is made of.");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
if (failed) process.exit(1);
