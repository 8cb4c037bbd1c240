// The WebhookOutbox of a user: one per user id.
import type { Env } from "../env.ts";

export function outboxOf(env: Env, userId: string) {
  return env.WEBHOOK_OUTBOX.get(env.WEBHOOK_OUTBOX.idFromName(userId));
}
