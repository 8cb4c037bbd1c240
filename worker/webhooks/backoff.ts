// When a failed webhook delivery is tried again. The first attempt is immediate; each retry waits the next delay
// of the schedule; past its end the delivery is failed for good.

/** 5 s, 30 s, 2 min, 10 min, 30 min, 2 h: seven attempts over about two and three quarter hours. */
export const DEFAULT_BACKOFF_SECONDS = [5, 30, 120, 600, 1800, 7200];

/** The schedule from WEBHOOK_BACKOFF_SECONDS ("5,30,120"), or the default when unset or malformed. */
export function backoffSchedule(setting: string | undefined): number[] {
  if (!setting) return DEFAULT_BACKOFF_SECONDS;
  const parts = setting.split(",").map((p) => Number(p.trim()));
  return parts.length > 0 && parts.every((n) => Number.isFinite(n) && n >= 0) ? parts : DEFAULT_BACKOFF_SECONDS;
}

/** Milliseconds to wait after `attemptsMade` failed attempts, or null when none is left. */
export function retryDelayMs(schedule: readonly number[], attemptsMade: number): number | null {
  const seconds = schedule[attemptsMade - 1];
  return seconds === undefined ? null : seconds * 1000;
}
