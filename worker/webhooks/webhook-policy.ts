// The webhook URL rules' inputs for this deployment: the studio's own origins and WEBHOOK_ALLOWED_HOSTS.
import { configOf } from "../config/config-of.ts";
import type { Env } from "../env.ts";
import type { WebhookPolicy } from "./webhook-url.ts";

/** What webhookUrlProblem needs to know about this studio. */
export function webhookPolicyOf(env: Env): WebhookPolicy {
  const config = configOf(env);
  return { api: config.BASE_URL, content: config.CONTENT_URL, allowedHosts: config.WEBHOOK_ALLOWED_HOSTS };
}
