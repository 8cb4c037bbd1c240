// The watchdog: the room's alarm looks at a render in progress every few seconds (project-room.ts `alarm`). It reads
// what the queue says of the render's jobs (render-facts.ts `watchLook`), decides on the render as it is after the
// reads (a node's report may have changed it meanwhile) with render-transitions.ts `watched` (a lost lease, the wall
// clock, a withdrawn or ended job, a queued render's place) and applies that step; then it sets the next look, unless
// the render ended.
import type { Env } from "../../env.ts";
import type { RenderDriver } from "./render-driver.ts";
import { limitsOf, watchLook } from "./render-facts.ts";
import { isLive } from "./render-step.ts";
import { watched } from "./render-transitions.ts";

/** One look of the watchdog at the render `renderId`, if it is still the room's live render. */
export async function watchdogLook(env: Env, storage: DurableObjectStorage, driver: RenderDriver, renderId: string): Promise<void> {
  const now = Date.now();
  const looked = await driver.current();
  if (!isLive(looked, renderId)) return;
  const look = await watchLook(env, looked, now);
  const render = await driver.current();
  if (!isLive(render, renderId)) return;
  const decision = watched(render, look, limitsOf(env));
  await driver.apply(decision.step);
  if (decision.againAt !== null && isLive(await driver.current(), renderId)) await storage.setAlarm(decision.againAt);
}
