// strict renders fail on lint errors before any node is involved. Filled in when the linter lands.
import type { Env } from "../env.ts";
import type { ProjectRef } from "../files/keys.ts";

export async function strictLintFailures(_env: Env, _ref: ProjectRef, _composition: string): Promise<string[]> {
  return [];
}
