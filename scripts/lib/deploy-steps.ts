// The remote half of a deploy as data: which wrangler commands change the account, in order, and the check before
// them that the required secrets exist. `npm run deploy` runs them; its --dry-run prints them.
import type { DeployTarget } from "./deploy-types.ts";

export interface DeployOptions {
  /** No Docker here: deploy the Worker only, leaving the render-node containers as they are (`--containers-rollout=none`). */
  noDocker: boolean;
}

/** wrangler's arguments for each remote step: D1 migrations first (the new code may need them), then the Worker. */
export function remoteSteps(target: DeployTarget, options: DeployOptions): string[][] {
  const env = ["--env", target.env];
  return [
    ...target.databases.map((db) => ["d1", "migrations", "apply", db.name, "--remote", ...env]),
    ["deploy", ...env, ...(options.noDocker ? ["--containers-rollout=none"] : [])],
  ];
}

/** A step as the operator would type it. */
export function commandLine(args: string[]): string {
  return `npx wrangler ${args.join(" ")}`;
}

/** The read-only command that lists the secrets the environment's Worker has (names only). */
export function secretListStep(target: DeployTarget): string[] {
  return ["secret", "list", "--env", target.env, "--format", "json"];
}

/** The required secrets (`secrets.required`) missing from `wrangler secret list`'s answer, in declared order. */
export function missingSecrets(target: DeployTarget, listed: unknown): string[] {
  const names = new Set(Array.isArray(listed) ? listed.map((s: { name?: unknown }) => s?.name).filter((n): n is string => typeof n === "string") : []);
  return (target.secretsRequired ?? []).filter((name) => !names.has(name));
}

/**
 * Why a deploy stops before changing anything when required secrets are not set: the deployed Worker would answer
 * every request 500 misconfigured (wrangler refuses too, but only after the migrations). `listError`: `secret list`
 * failed (on a first deploy the Worker does not exist yet, so it has no secrets), with wrangler's output.
 */
export function missingSecretsMessage(target: DeployTarget, missing: string[], listError?: string): string {
  const put = missing.map((name) => `  npx wrangler secret put ${name} --env ${target.env}`).join("\n");
  const listed = listError
    ? `Could not list the secrets of [env.${target.env}]'s Worker (on a first deploy it does not exist yet, and has none):\n${listError}\n`
    : "";
  return (
    `${listed}Required secrets not set: ${missing.join(", ")}. Without them the Worker answers every request 500 misconfigured. ` +
    `Put them first (on a first deploy the first \`secret put\` creates the Worker, which serves nothing on your routes until the deploy):\n${put}\n` +
    `CONTAINER_NODE_KEY comes from \`npm run node-key -- containers --remote --env ${target.env}\` once the D1 migrations are applied ` +
    `(\`npx wrangler d1 migrations apply <database> --remote --env ${target.env}\`). docs/deploy.md, "Secrets", has the order.`
  );
}
