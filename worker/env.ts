// Bindings and configuration of the Studio Worker (see wrangler.toml and the README's configuration table).
import type { RenderNodeContainer } from "./containers/render-node-container.ts";
import type { JobBoard } from "./jobs/job-board.ts";
import type { ProjectRoom } from "./rooms/project-room.ts";
import type { StorageLedger } from "./storage/storage-ledger.ts";
import type { WebhookOutbox } from "./webhooks/webhook-outbox.ts";

export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  PROJECT_ROOM: DurableObjectNamespace<ProjectRoom>;
  /** One per user: the webhook signing secret, project webhooks and render-webhook deliveries (worker/webhooks/). */
  WEBHOOK_OUTBOX: DurableObjectNamespace<WebhookOutbox>;
  /** Seconds between webhook retries, comma separated (default "5,30,120,600,1800,7200"). */
  WEBHOOK_BACKOFF_SECONDS?: string;
  /** Private receivers webhooks may call although their address is not public: comma-separated host names, IP
   * addresses and CIDR ranges (worker/webhooks/allowed-hosts.ts). Unset: public addresses only. */
  WEBHOOK_ALLOWED_HOSTS?: string;
  /** Where render nodes' claims wait for work (worker/jobs/job-board.ts). */
  JOB_BOARD: DurableObjectNamespace<JobBoard>;
  /** One per user: what they store in R2 against their quota (worker/storage/storage-ledger.ts). */
  STORAGE_LEDGER: DurableObjectNamespace<StorageLedger>;
  ASSETS?: Fetcher;
  /** Which upload of the Worker this is (id, tag, timestamp): reported by GET /api/health. */
  CF_VERSION_METADATA?: WorkerVersionMetadata;
  /** "true" enables POST /auth/dev/login. Off in production unless set explicitly. */
  DEV_LOGIN?: string;
  /** HMAC key from which personal API tokens are derived; tokens are never stored, only their hashes. */
  TOKEN_SECRET?: string;
  GITHUB_CLIENT_ID?: string;
  GITHUB_CLIENT_SECRET?: string;
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  /** Comma-separated user ids with admin rights on the idea board. */
  ADMIN_USER_IDS?: string;
  /** Idea-board writes allowed per caller per window (default 30). */
  IDEA_WRITE_LIMIT?: string;
  /** Length of the idea-board rate-limit window in seconds (default 60). */
  IDEA_WRITE_WINDOW_SECONDS?: string;
  /** Largest accepted file upload, in bytes. */
  MAX_FILE_BYTES?: string;
  /** What one user may store, project files and renders together, in bytes (default 5 GiB). */
  MAX_STORAGE_BYTES?: string;
  /** How many objects (files, empty directories, renders) one user may store (default 100,000). */
  MAX_STORED_FILES?: string;
  /** Origin of the API and dashboard (default http://127.0.0.1:8787); links are built from it, never from Host. */
  BASE_URL?: string;
  /** Origin of user content (project files, /play, previews, snapshots): a different site from BASE_URL
   * (default http://localhost:8787). See worker/http/origins.ts. */
  CONTENT_URL?: string;
  /** How long a render node holds a job without a progress post before the job is given up (ms). */
  JOB_LEASE_MS?: string;
  /** How many nodes may try one job (render, segment, join) before its render fails (default 3). */
  MAX_JOB_ATTEMPTS?: string;
  /** Renders of at most this many frames are not split (default: 20 s of video at the render's rate). */
  SEGMENT_MIN_FRAMES?: string;
  /** Frames per segment of a split render (default: 10 s of video at the render's rate). */
  SEGMENT_TARGET_FRAMES?: string;
  /** Most segments one render is split into (default 64); a longer render gets longer segments. */
  MAX_SEGMENTS?: string;
  /** Longest video one render may make, in seconds of video (default 3600). */
  MAX_VIDEO_SECONDS?: string;
  /** Production only: render nodes as Cloudflare Containers, woken when work is queued. */
  RENDER_NODE_CONTAINER?: DurableObjectNamespace<RenderNodeContainer>;
  /** The node key the containers use (a secret; create one with `npm run node-key -- containers --remote`). */
  CONTAINER_NODE_KEY?: string;
  /** Older name of CONTAINER_MAX_INSTANCES. */
  CONTAINER_POOL_SIZE?: string;
  /** Container scaling with queue depth (worker/containers/render-node-container.ts): instances at least, at most
   * (default 0 and 8), and jobs per instance (default 1). */
  CONTAINER_MIN_INSTANCES?: string;
  CONTAINER_MAX_INSTANCES?: string;
  CONTAINER_JOBS_PER_INSTANCE?: string;
  /** The node's NODE_CONCURRENCY in each container: browsers per render, one per vCPU of the instance type (default 2). */
  CONTAINER_NODE_CONCURRENCY?: string;
  /** How long snapshot and check wait for their job before answering 504 with the stage that hung (ms). */
  BROWSER_JOB_TIMEOUT_MS?: string;
  /** How long snapshot, check and preview wait for a render node to pick their job up (ms). */
  NODE_PICKUP_TIMEOUT_MS?: string;
  /** How long ended jobs (the queue's work rows) are kept before the hourly prune deletes them (days; default 7). */
  JOB_RETENTION_DAYS?: string;
  /** Longest a render may take from its POST to its end, queued time included (ms; default 30 minutes). */
  MAX_RENDER_MS?: string;
  /** Per-user caps (worker/limits/work-caps.ts): renders in progress across projects (default 3), snapshot and
   * check jobs in flight (default 2 each), previews running (default 3). Past one: 429 with Retry-After. */
  MAX_RENDERS_PER_USER?: string;
  MAX_SNAPSHOTS_PER_USER?: string;
  MAX_CHECKS_PER_USER?: string;
  MAX_PREVIEWS_PER_USER?: string;
}
