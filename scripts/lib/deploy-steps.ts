// The remote half of a deploy as data: which wrangler commands change the account, in order. `npm run deploy` runs
// them; its --dry-run prints them.
import type { DeployTarget } from "./deploy-checks.ts";

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
