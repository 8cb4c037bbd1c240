// `npm run deploy -- --env <name> [--dry-run] [--no-docker]`: one environment of wrangler.toml from a fresh clone
// to Cloudflare (docs/deploy.md). In order: the configuration checks (scripts/lib/deploy-checks.ts: refused while
// wrangler.toml still has the repository's placeholder D1 id or example domains), the dashboard build, a local dry
// run of the deploy (bundles the Worker; no network, no Docker), the D1 migrations on the remote database, and the
// deploy of the Worker and its render-node containers; before the remote steps, the required secrets
// (`secrets.required`) are checked with `wrangler secret list`, so a Worker is never deployed to answer 500. --dry-run stops before anything remote and prints what it
// would run; --no-docker deploys the Worker only, leaving the containers as they are (--containers-rollout=none).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildDashboard } from "./lib/dashboard.ts";
import { checkDeployTarget, envSection, type ConfigProblem } from "./lib/deploy-checks.ts";
import { commandLine, missingSecrets, missingSecretsMessage, remoteSteps, secretListStep } from "./lib/deploy-steps.ts";
import { readDeployTarget } from "./lib/deploy-target.ts";
import { bundleWorker, wranglerEnvironments } from "./lib/worker-bundle.ts";
import { wranglerLive } from "./lib/wrangler-live.ts";
import { wranglerStdout } from "./lib/wrangler.ts";

const USAGE = "usage: npm run deploy -- --env <name> [--dry-run] [--no-docker]";

/** Prints a message and the usage line, then exits 2 (a usage error, nothing done). */
function usageError(message: string): never {
  console.error(`npm run deploy: ${message}\n${USAGE}`);
  process.exit(2);
}

/** The command line's options; unknown flags and positionals are usage errors. */
function readOptions(): { env: string; dryRun: boolean; noDocker: boolean } {
  try {
    const { values } = parseArgs({
      options: { env: { type: "string" }, "dry-run": { type: "boolean" }, "no-docker": { type: "boolean" } },
      strict: true,
    });
    return { env: values.env ?? "", dryRun: values["dry-run"] ?? false, noDocker: values["no-docker"] ?? false };
  } catch (error) {
    return usageError((error as Error).message);
  }
}

/** One problem as a list item: where, then what to do. */
function listItem(problem: ConfigProblem): string {
  return `  - ${problem.setting}: ${problem.message}`;
}

const options = readOptions();
const environments = (await wranglerEnvironments()).filter(Boolean);
if (!environments.includes(options.env)) {
  usageError(
    `--env names the wrangler.toml environment to deploy: ${environments.join(", ")} ` +
      `(the top level is the local configuration npm start uses)${options.env ? `; there is no [env.${options.env}]` : ""}`,
  );
}
const section = envSection(options.env);

console.log(`1. Checking wrangler.toml ${section}`);
const target = await readDeployTarget(options.env);
const problems = checkDeployTarget(target);
const invalid = problems.filter((p) => p.kind === "invalid");
const unfinished = problems.filter((p) => p.kind === "unfinished");
if (invalid.length > 0 || (!options.dryRun && unfinished.length > 0)) {
  console.error(
    `npm run deploy: wrangler.toml's ${section} is not ready to deploy. Change:\n` +
      `${[...invalid, ...unfinished].map(listItem).join("\n")}\n` +
      `then run this again. docs/deploy.md walks through each setting. Nothing was built or uploaded.`,
  );
  process.exit(1);
}
if (unfinished.length > 0) {
  console.log(`    A real deploy refuses until these are changed:\n${unfinished.map(listItem).join("\n")}`);
}

console.log("2. Building the dashboard (dashboard/dist)");
await buildDashboard();

console.log(`3. Dry run: wrangler deploy --dry-run --env ${options.env} --containers-rollout=none`);
const outdir = await mkdtemp(join(tmpdir(), "studio-deploy-"));
try {
  const bundle = await bundleWorker(outdir, options.env);
  console.log(`    Worker bundled: ${(bundle.bytes / 1024).toFixed(1)} KiB, ${(bundle.gzipBytes / 1024).toFixed(1)} KiB gzip`);
} finally {
  await rm(outdir, { recursive: true, force: true });
}

const steps = remoteSteps(target, { noDocker: options.noDocker });
const secretCheck = `${commandLine(secretListStep(target))}   (checks that ${(target.secretsRequired ?? []).join(", ") || "nothing, no secrets.required declared,"} are set)`;
const baseUrl = typeof target.vars.BASE_URL === "string" ? target.vars.BASE_URL.replace(/\/+$/, "") : "<BASE_URL>";
const verify =
  `Check the deploy: curl -s ${baseUrl}/api/health  ("build": { "id": … } is the Current Version ID wrangler printed);\n` +
  `then sign in on ${baseUrl} and render the starter project (docs/deploy.md, "Checking a deploy").\n` +
  `Roll back the Worker with: npx wrangler rollback --env ${options.env} (docs/deploy.md, "Rolling back").`;

if (options.dryRun) {
  console.log(`Dry run done: checks, dashboard build and the local deploy dry run passed; nothing was uploaded.`);
  console.log(`A deploy would now run:\n  4. ${secretCheck}\n${steps.map((s, i) => `  ${i + 5}. ${commandLine(s)}`).join("\n")}`);
  console.log(`After it:\n${verify}`);
  process.exit(0);
}

// Before anything remote changes: a Worker deployed without its required secrets answers every request 500.
console.log(`4. ${secretCheck}`);
if ((target.secretsRequired ?? []).length > 0) {
  let listed: unknown;
  let listError: string | undefined;
  try {
    listed = JSON.parse(await wranglerStdout(secretListStep(target)));
  } catch (error) {
    listError = (error as Error).message;
  }
  const missing = missingSecrets(target, listed);
  if (missing.length > 0) {
    console.error(`npm run deploy: ${missingSecretsMessage(target, missing, listError)}\nNothing was migrated or uploaded.`);
    process.exit(1);
  }
}

for (const [i, step] of steps.entries()) {
  console.log(`${i + 5}. ${commandLine(step)}`);
  try {
    await wranglerLive(step);
  } catch (error) {
    console.error(`npm run deploy: ${(error as Error).message}. Steps before it are done; fix the cause and run this again.`);
    process.exit(1);
  }
}
if (options.noDocker) console.log("The render-node containers were left as they were (--no-docker): deploy with Docker to update them.");
console.log(`Deployed ${section}.\n${verify}`);
