// The render pipeline's durable records: render nodes (by key hash), the job queue with leases, and renders.
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./identity.ts";

export const renderNodes = sqliteTable(
  "render_nodes",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at"),
  },
  (t) => [uniqueIndex("render_nodes_key").on(t.keyHash)],
);

/**
 * Work for render nodes. `kind` is render, snapshot, check or preview (a long-running job the node holds). A claimed job carries a lease that every progress
 * post renews; a lapsed lease puts the job back once (attempts) and then fails it with the reason.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    kind: text("kind").notNull(),
    /** queued | running | done | failed | cancelled */
    status: text("status").notNull(),
    /** JSON of the validated options the node needs. */
    options: text("options").notNull(),
    nodeId: text("node_id"),
    leaseExpiresAt: integer("lease_expires_at"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
    error: text("error"),
    /** JSON the node reports on completion (snapshot list, check findings); a running preview's `{ port }`. */
    result: text("result"),
    /** What the node is doing now (its last progress stage), so a server-side timeout can name the stage that hung. */
    stage: text("stage"),
  },
  // jobs_user_served: the claim's fair order reads each waiting user's last served render work (worker/renders/farm/
  // queue.ts) from this index alone, never from the user's whole job history.
  (t) => [index("jobs_queue").on(t.status, t.createdAt), index("jobs_project").on(t.userId, t.slug), index("jobs_user_served").on(t.userId, t.kind, t.startedAt)],
);

/** One row per render; the file lives in R2 under r/<userId>/<filename> once the render is done. */
export const renders = sqliteTable(
  "renders",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    filename: text("filename").notNull(),
    format: text("format").notNull(),
    /** queued | rendering | done | failed | cancelled */
    status: text("status").notNull(),
    size: integer("size"),
    lastLine: text("last_line"),
    startedAt: integer("started_at").notNull(),
    doneAt: integer("done_at"),
    /** Set when the user deleted the file; the row stays so history and stats remain true. */
    deletedAt: integer("deleted_at"),
    /** The render's public state (core/protocol/render-state.ts) at its last transition, as JSON: the projection the
     * ProjectRoom writes (worker/renders/projection.ts) and lists and GET /api/renders/:id read. */
    state: text("state").notNull().default("{}"),
  },
  // renders_done: the farm's recent pace for quotes (worker/renders/recent-throughput.ts), newest finished first.
  (t) => [index("renders_project").on(t.userId, t.slug, t.startedAt), uniqueIndex("renders_file").on(t.userId, t.filename), index("renders_done").on(t.status, t.doneAt)],
);
