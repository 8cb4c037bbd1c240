// CI's deploy check: every environment of wrangler.toml bundles as `wrangler deploy` would (a dry run: no network,
// no Docker), and the Worker script stays within its size budget. Fails with the figures when it does not.
//   node scripts/check-deploy.ts
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleWorker, wranglerEnvironments } from "./lib/worker-bundle.ts";

/** Gzipped Worker script, the figure Cloudflare's size limit and cold starts depend on. */
export const BUNDLE_BUDGET_GZIP_BYTES = 500 * 1024;

let failed = false;
for (const env of await wranglerEnvironments()) {
  const dir = await mkdtemp(join(tmpdir(), "studio-deploy-"));
  try {
    const bundle = await bundleWorker(dir, env);
    const over = bundle.gzipBytes > BUNDLE_BUDGET_GZIP_BYTES;
    failed ||= over;
    const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    console.log(
      `${env || "default"}: dry run ok, Worker ${kib(bundle.bytes)}, gzip ${kib(bundle.gzipBytes)} of ${kib(BUNDLE_BUDGET_GZIP_BYTES)}${over ? "  OVER BUDGET" : ""}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
if (failed) {
  console.error("The Worker bundle passed its budget: see bench/startup.ts for what it is made of.");
  process.exit(1);
}
