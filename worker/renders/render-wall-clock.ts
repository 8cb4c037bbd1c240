// Every render ends within MAX_RENDER_MS (default 30 minutes) of running time, summed over its attempts from each
// node's claim; time waiting in the queue does not count (room/render-transitions.ts runningDeadline). The
// ProjectRoom's watchdog fails it with a line naming the limit and ends its job, so the node holding it is told to stop.
import { configOf } from "../config/config-of.ts";
import type { Env } from "../env.ts";

export function maxRenderMs(env: Env): number {
  return configOf(env).MAX_RENDER_MS;
}

/** "30 min", "90 s", "1.5 s": how the limit reads in the render's log. */
export function describeDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

export function wallClockError(env: Env): string {
  return `render exceeded the wall-clock limit of ${describeDuration(maxRenderMs(env))}`;
}
