// One WebhookOutbox per user: their signing secret, their projects' webhook URLs, and the deliveries of their
// render webhooks with every attempt. A delivery is attempted from the alarm (the first at once), and a failure is
// retried on the backoff schedule (backoff.ts); the alarm always points at the next due delivery.
import { DurableObject } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { configOf } from "../config/config-of.ts";
import type { Env } from "../env.ts";
import { retryDelayMs } from "./backoff.ts";
import { webhookPolicyOf } from "./webhook-policy.ts";
import { webhookUrlProblem } from "./webhook-url.ts";

/** How long one attempt may take before it counts as failed. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Deliveries kept per user (older ones are forgotten). */
const KEEP_DELIVERIES = 500;

export type DeliveryStatus = "pending" | "delivered" | "failed" | "refused";

export interface NewDelivery {
  renderId: string;
  slug: string;
  /** `render.done`, `render.failed` or `render.cancelled`. */
  event: string;
  url: string;
  /** The JSON body, exactly as signed and sent. */
  payload: string;
}

export interface Attempt {
  n: number;
  at: string;
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface Delivery {
  id: string;
  renderId: string;
  slug: string;
  event: string;
  url: string;
  status: DeliveryStatus;
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: Attempt[];
}

type DeliveryRow = {
  id: string;
  render_id: string;
  slug: string;
  event: string;
  url: string;
  payload: string;
  status: DeliveryStatus;
  created_at: number;
  next_at: number | null;
};

/** A new signing secret: `whsec_` and 32 random bytes in base64, the Standard Webhooks form. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

// Types env.ts's WebhookOutbox namespace (durable-object-classes.ts says why this way round).
declare module "../durable-object-classes.ts" {
  interface DurableObjectClasses {
    WebhookOutbox: WebhookOutbox;
  }
}

export class WebhookOutbox extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    // A project's webhook belongs to that project, not to its slug: it keeps the project's creation time, so a
    // project deleted and made again under the same name starts without one.
    sql.exec("CREATE TABLE IF NOT EXISTS project_hooks (slug TEXT PRIMARY KEY, url TEXT NOT NULL, project_created_at INTEGER NOT NULL)");
    sql.exec(`CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, render_id TEXT NOT NULL, slug TEXT NOT NULL,
      event TEXT NOT NULL, url TEXT NOT NULL, payload TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL,
      next_at INTEGER)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS attempts (delivery_id TEXT NOT NULL, n INTEGER NOT NULL, at INTEGER NOT NULL,
      status INTEGER, error TEXT, duration_ms INTEGER NOT NULL, PRIMARY KEY (delivery_id, n))`);
  }

  private setting(key: string): string | null {
    return this.ctx.storage.sql.exec<{ value: string }>("SELECT value FROM settings WHERE key = ?", key).toArray()[0]?.value ?? null;
  }

  private putSetting(key: string, value: string): void {
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", key, value);
  }

  /** A new secret replaces the old one at once; the old one signs nothing more. Returned only here. */
  async rotateSecret(): Promise<{ secret: string; createdAt: string }> {
    const secret = newSecret();
    const createdAt = new Date().toISOString();
    this.putSetting("secret", secret);
    this.putSetting("secret_created_at", createdAt);
    return { secret, createdAt };
  }

  /** Whether a secret exists and since when (never the secret itself). */
  async secretInfo(): Promise<{ configured: boolean; createdAt: string | null }> {
    return { configured: this.setting("secret") !== null, createdAt: this.setting("secret_created_at") };
  }

  async setProjectHook(slug: string, url: string | null, projectCreatedAt: number): Promise<void> {
    if (url === null) this.ctx.storage.sql.exec("DELETE FROM project_hooks WHERE slug = ?", slug);
    else {
      this.ctx.storage.sql.exec(
        "INSERT OR REPLACE INTO project_hooks (slug, url, project_created_at) VALUES (?, ?, ?)",
        slug, url, projectCreatedAt,
      );
    }
  }

  /** The webhook of this project (the one created at `projectCreatedAt`), or null. */
  async projectHook(slug: string, projectCreatedAt: number): Promise<string | null> {
    return (
      this.ctx.storage.sql
        .exec<{ url: string }>("SELECT url FROM project_hooks WHERE slug = ? AND project_created_at = ?", slug, projectCreatedAt)
        .toArray()[0]?.url ?? null
    );
  }

  /** Queues a delivery and wakes the alarm to attempt it now. */
  async enqueue(delivery: NewDelivery): Promise<string> {
    const id = `msg_${crypto.randomUUID()}`;
    const now = Date.now();
    this.ctx.storage.sql.exec(
      "INSERT INTO deliveries (id, render_id, slug, event, url, payload, status, created_at, next_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)",
      id, delivery.renderId, delivery.slug, delivery.event, delivery.url, delivery.payload, now, now,
    );
    this.ctx.storage.sql.exec(
      "DELETE FROM deliveries WHERE id NOT IN (SELECT id FROM deliveries ORDER BY created_at DESC LIMIT ?)",
      KEEP_DELIVERIES,
    );
    this.ctx.storage.sql.exec("DELETE FROM attempts WHERE delivery_id NOT IN (SELECT id FROM deliveries)");
    await this.scheduleNext();
    return id;
  }

  async deliveriesOf(renderId: string): Promise<Delivery[]> {
    const rows = this.ctx.storage.sql
      .exec<DeliveryRow>("SELECT * FROM deliveries WHERE render_id = ? ORDER BY created_at", renderId)
      .toArray();
    return rows.map((row) => this.describe(row));
  }

  private describe(row: DeliveryRow): Delivery {
    const attempts = this.ctx.storage.sql
      .exec<{ n: number; at: number; status: number | null; error: string | null; duration_ms: number }>(
        "SELECT n, at, status, error, duration_ms FROM attempts WHERE delivery_id = ? ORDER BY n",
        row.id,
      )
      .toArray()
      .map((a) => ({ n: a.n, at: new Date(a.at).toISOString(), status: a.status, error: a.error, durationMs: a.duration_ms }));
    return {
      id: row.id,
      renderId: row.render_id,
      slug: row.slug,
      event: row.event,
      url: row.url,
      status: row.status,
      createdAt: new Date(row.created_at).toISOString(),
      nextAttemptAt: row.status === "pending" && row.next_at !== null ? new Date(row.next_at).toISOString() : null,
      attempts,
    };
  }

  private async scheduleNext(): Promise<void> {
    const next = this.ctx.storage.sql
      .exec<{ at: number | null }>("SELECT min(next_at) AS at FROM deliveries WHERE status = 'pending'")
      .toArray()[0]?.at;
    if (next === null || next === undefined) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(next);
  }

  override async alarm(): Promise<void> {
    const due = this.ctx.storage.sql
      .exec<DeliveryRow>("SELECT * FROM deliveries WHERE status = 'pending' AND next_at <= ? ORDER BY next_at LIMIT 20", Date.now())
      .toArray();
    await Promise.all(due.map((row) => this.attempt(row)));
    await this.scheduleNext();
  }

  private async attempt(row: DeliveryRow): Promise<void> {
    const n =
      (this.ctx.storage.sql.exec<{ n: number | null }>("SELECT max(n) AS n FROM attempts WHERE delivery_id = ?", row.id).toArray()[0]?.n ?? 0) + 1;
    const started = Date.now();
    const record = (status: number | null, error: string | null) =>
      this.ctx.storage.sql.exec(
        "INSERT INTO attempts (delivery_id, n, at, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)",
        row.id, n, started, status, error, Date.now() - started,
      );
    // Checked again at send time: a render's own webhookUrl is only checked for its form when the render starts.
    const problem = webhookUrlProblem(row.url, webhookPolicyOf(this.env));
    if (problem) {
      record(null, problem);
      this.ctx.storage.sql.exec("UPDATE deliveries SET status = 'refused', next_at = NULL WHERE id = ?", row.id);
      return;
    }
    const secret = this.setting("secret") ?? (await this.rotateSecret()).secret;
    const timestamp = new Date(started);
    const signature = new Webhook(secret).sign(row.id, timestamp, row.payload);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(row.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "studio-webhooks",
          "webhook-id": row.id,
          "webhook-timestamp": String(Math.floor(started / 1000)),
          "webhook-signature": signature,
        },
        body: row.payload,
        // A redirect could lead anywhere, including where webhookUrlProblem refuses to go.
        redirect: "manual",
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      status = res.status;
      await res.body?.cancel();
      if (status < 200 || status >= 300) error = `receiver answered ${status}`;
    } catch (err) {
      error = err instanceof Error && err.name === "TimeoutError" ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` : `could not reach the receiver: ${String((err as Error).message ?? err)}`;
    }
    record(status, error);
    if (error === null) {
      this.ctx.storage.sql.exec("UPDATE deliveries SET status = 'delivered', next_at = NULL WHERE id = ?", row.id);
      return;
    }
    const delay = retryDelayMs(configOf(this.env).WEBHOOK_BACKOFF_SECONDS, n);
    if (delay === null) this.ctx.storage.sql.exec("UPDATE deliveries SET status = 'failed', next_at = NULL WHERE id = ?", row.id);
    else this.ctx.storage.sql.exec("UPDATE deliveries SET next_at = ? WHERE id = ?", Date.now() + delay, row.id);
  }
}
