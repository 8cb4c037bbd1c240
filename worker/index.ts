// Worker entry: the HTTP app, the hourly housekeeping (a Cron Trigger) and the Durable Object classes wrangler binds.
// The configuration is parsed first (worker/config/): while it is bad, every request answers 500 naming the setting
// and housekeeping does nothing (worker/config/misconfigured.ts).
import { createApp } from "./app.ts";
import { configProblem } from "./config/config-of.ts";
import { logMisconfigured, misconfiguredResponse } from "./ops/misconfigured.ts";
import type { Env } from "./env.ts";
import { pruneExpired } from "./ops/prune.ts";
import { logEvent } from "./http/log.ts";

export { ProjectRoom } from "./renders/room/project-room.ts";
export { WebhookOutbox } from "./webhooks/webhook-outbox.ts";
export { JobBoard } from "./renders/farm/job-board.ts";
export { StorageLedger } from "./storage/storage-ledger.ts";
export { RenderNodeContainer } from "./renders/farm/render-node-container.ts";
// The Containers outbound proxy: it enforces RenderNodeContainer's egress allowlist (no export, no allowlist).
export { ContainerProxy } from "@cloudflare/containers";
const app = createApp();

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const problem = configProblem(env);
    if (problem) return misconfiguredResponse(request, env, problem);
    return app.fetch(request, env, ctx);
  },
  async scheduled(_controller: ScheduledController, env: Env): Promise<void> {
    const problem = configProblem(env);
    if (problem) return logMisconfigured("housekeeping", problem);
    const pruned = await pruneExpired(env);
    logEvent("info", "housekeeping", { endedJobs: pruned.jobs, expiredSessions: pruned.sessions, idempotencyKeys: pruned.idempotencyKeys, registrationCounters: pruned.registrationCounters, refreshClaims: pruned.refreshClaims, metadataFetchCounters: pruned.metadataFetchCounters, more: pruned.more });
  },
} satisfies ExportedHandler<Env>;
