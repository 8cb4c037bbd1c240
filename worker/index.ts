// Worker entry: the HTTP app, the hourly housekeeping (a Cron Trigger) and the Durable Object classes wrangler binds.
import { createApp } from "./app.ts";
import type { Env } from "./env.ts";
import { pruneExpired } from "./maintenance/prune.ts";
import { logEvent } from "./http/log.ts";

export { ProjectRoom } from "./rooms/project-room.ts";
export { WebhookOutbox } from "./webhooks/webhook-outbox.ts";
export { JobBoard } from "./jobs/job-board.ts";
export { StorageLedger } from "./storage/storage-ledger.ts";
export { RenderNodeContainer } from "./containers/render-node-container.ts";
// The Containers outbound proxy: it enforces RenderNodeContainer's egress allowlist (no export, no allowlist).
export { ContainerProxy } from "@cloudflare/containers";
const app = createApp();

export default {
  fetch: app.fetch,
  async scheduled(_controller: ScheduledController, env: Env): Promise<void> {
    const pruned = await pruneExpired(env);
    logEvent("info", "housekeeping", { endedJobs: pruned.jobs, expiredSessions: pruned.sessions, idempotencyKeys: pruned.idempotencyKeys });
  },
} satisfies ExportedHandler<Env>;
