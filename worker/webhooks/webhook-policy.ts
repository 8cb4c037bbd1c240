// The webhook URL rules' inputs for this deployment: the studio's own origins and WEBHOOK_ALLOWED_HOSTS.
import type { Env } from "../env.ts";
import { apiOrigin, contentOrigin } from "../http/origins.ts";
import { parseAllowedHosts } from "./allowed-hosts.ts";
import type { WebhookPolicy } from "./webhook-url.ts";

/** What webhookUrlProblem needs to know about this studio. */
export function webhookPolicyOf(env: Env): WebhookPolicy {
  return { api: apiOrigin(env), content: contentOrigin(env), allowedHosts: parseAllowedHosts(env.WEBHOOK_ALLOWED_HOSTS) };
}
