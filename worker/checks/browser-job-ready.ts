// What check and snapshot both require before their job is queued, in this order: every asked time within the
// composition (a 400 naming it), a composition within the size limits, and a render node to run it (a 503).
import { timePastEnd } from "../../core/browser/browser-options.ts";
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { badRequest } from "../http/errors.ts";
import { requireCompositionWithinLimits } from "../limits/composition-size.ts";
import type { ProjectRef } from "../storage/keys.ts";
import { requireRenderNode } from "../renders/farm/node-presence.ts";

export async function requireBrowserJobReady(env: Env, db: Db, ref: ProjectRef, at: readonly number[] | undefined, duration: number | null, action: string) {
  const past = timePastEnd(at, duration);
  if (past) throw badRequest(past);
  await requireCompositionWithinLimits(env, ref, "index.html");
  await requireRenderNode(env, db, action);
}
