// When a failed webhook delivery is tried again. The first attempt is immediate; each retry waits the next delay
// of the schedule (WEBHOOK_BACKOFF_SECONDS, worker/config/settings.ts); past its end the delivery is failed for good.
import { defaultOf } from "../config/parse-config.ts";

/** 5 s, 30 s, 2 min, 10 min, 30 min, 2 h: seven attempts over about two and three quarter hours. */
export const DEFAULT_BACKOFF_SECONDS: readonly number[] = defaultOf("WEBHOOK_BACKOFF_SECONDS");

/** Milliseconds to wait after `attemptsMade` failed attempts, or null when none is left. */
export function retryDelayMs(schedule: readonly number[], attemptsMade: number): number | null {
  const seconds = schedule[attemptsMade - 1];
  return seconds === undefined ? null : seconds * 1000;
}
