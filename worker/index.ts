// Worker entry: the HTTP app and the Durable Object classes wrangler binds.
import { createApp } from "./app.ts";

export { ProjectRoom } from "./rooms/project-room.ts";
export { WebhookOutbox } from "./webhooks/webhook-outbox.ts";
export { JobBoard } from "./jobs/job-board.ts";
export { RenderNodeContainer } from "./containers/render-node-container.ts";
// The Containers outbound proxy: it enforces RenderNodeContainer's egress allowlist (no export, no allowlist).
export { ContainerProxy } from "@cloudflare/containers";
export default createApp();
