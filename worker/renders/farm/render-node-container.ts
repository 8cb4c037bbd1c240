// Production render nodes as Cloudflare Containers (wrangler.toml [env.production]): each instance runs
// render-node/Dockerfile and pulls jobs from this Worker like any other node, with a node key from a secret.
// Locally there is no Docker engine: `npm start` and `npm run node` run nodes as processes and this stays unbound,
// unless `STUDIO_NODES=containers npm start` binds it to local processes (see the end of this comment block).
//
// How nodes reach the Worker: over HTTPS at BASE_URL (STUDIO_URL in the container), the public API origin, through
// Containers' outbound proxy, which lets out that one host and nothing else (see Egress below). Nothing calls into
// a node: it long-polls for work, so the Worker needs no address for it.
//
// Scaling with queue depth: Containers have no autoscaler of their own yet (instances are started by name, see
// developers.cloudflare.com/containers/configuration/scaling-and-routing), so the Worker does it. Whenever work is
// queued it counts the queue (`queueDepth`: jobs queued or running, by what takes them on a node) and starts
// `nodesForQueue(depth)` instances, `render-node-0` … `render-node-<n-1>`.
// What one instance takes at once (render-node/main.ts runs two claim loops): one piece of render work (a render,
// a segment of a split render or a join; its NODE_CONCURRENCY browsers and chunk encoders share it) and, beside
// it, one snapshot or check (one more browser); previews run in the background of the second loop. So the queue
// needs as many instances as the larger of its render work and its browser work, divided by
// CONTAINER_JOBS_PER_INSTANCE (default 1: a second render on a node would only wait for the first) and rounded up,
// at least one while a preview runs (it lives on a node), at least CONTAINER_MIN_INSTANCES, at most
// CONTAINER_MAX_INSTANCES (default 8; keep it ≤ max_instances in wrangler.toml, which sizes each instance: see
// render-node/README.md, "Sizing"). A split render's segments are render work each, so a long render spreads
// over that many instances.
// An instance stops itself once its `sleepAfter` (CONTAINER_SLEEP_AFTER) passes and it has no work of its own
// (onActivityExpired, idleVerdict): its node holds no job (the node's health answer counts them) and none is queued
// for it to claim, unless it is one of the CONTAINER_MIN_INSTANCES first instances. A node pulls, so no inbound
// request would ever renew its activity; a busy node must not be stopped mid-render, and an idle one must not stay
// up because other instances work. One it stopped for idleness is started again only if work was queued since (not
// because another instance still renders: it would start, find nothing to claim and idle out again, a node start
// every sleepAfter for as long as any render ran). One that stopped otherwise (onStop, whatever its exit code, or
// onError) is started again while work is queued or running (a node stopped by the platform gave its job back, a dead
// node's job is put back when its lease lapses); either, always when it is one of the CONTAINER_MIN_INSTANCES
// (restartVerdict).
// Locally, `STUDIO_NODES=containers npm start` runs this same class with the container runtime answered by a local
// host that starts render-node processes (local-container.ts, scripts/lib/local-containers.ts).
import { Container, getContainer } from "@cloudflare/containers";
import { logEvent } from "../../http/log.ts";
import { configOf } from "../../config/config-of.ts";
import type { Config } from "../../config/config-types.ts";
import type { Env } from "../../env.ts";
import { withLocalContainer } from "./local-container.ts";

export interface ScalingRule {
  min: number;
  max: number;
  jobsPerInstance: number;
}

/** The scaling rule from the settings (limits, defaults and the older CONTAINER_POOL_SIZE: worker/config/settings.ts). */
export function scalingRule(config: Pick<Config, "CONTAINER_MIN_INSTANCES" | "CONTAINER_MAX_INSTANCES" | "CONTAINER_JOBS_PER_INSTANCE">): ScalingRule {
  return { min: config.CONTAINER_MIN_INSTANCES, max: config.CONTAINER_MAX_INSTANCES, jobsPerInstance: config.CONTAINER_JOBS_PER_INSTANCE };
}

/** Jobs queued or running, by the node loop that takes them (render-node/main.ts). */
export interface QueueDepth {
  /** render, segment, join: one at a time per node. */
  render: number;
  /** snapshot, check: one at a time per node, beside its render work. */
  browser: number;
  /** preview: in the background of a node, however many. */
  preview: number;
}

export const EMPTY_QUEUE: QueueDepth = { render: 0, browser: 0, preview: 0 };

/** Whether any job is queued or running. */
export const queueBusy = (depth: QueueDepth) => depth.render + depth.browser + depth.preview > 0;

/** Instances to run for the jobs queued or running. Pure. */
export function nodesForQueue(depth: QueueDepth, rule: ScalingRule): number {
  const busiest = Math.max(0, depth.render, depth.browser);
  const wanted = Math.max(Math.ceil(busiest / rule.jobsPerInstance), depth.preview > 0 ? 1 : 0);
  return Math.max(rule.min, Math.min(wanted, rule.max));
}

/** Jobs queued or running that a render node must do (the queue's depth). */
export async function queueDepth(env: Env): Promise<QueueDepth> {
  const row = await env.DB.prepare(
    "SELECT SUM(kind IN ('render', 'segment', 'join')) AS render, SUM(kind IN ('snapshot', 'check')) AS browser, SUM(kind = 'preview') AS preview " +
      "FROM jobs WHERE status IN ('queued', 'running')",
  ).first<{ render: number | null; browser: number | null; preview: number | null }>();
  return { render: row?.render ?? 0, browser: row?.browser ?? 0, preview: row?.preview ?? 0 };
}


/**
 * Egress. A render node runs compositions — programs written by users and agents — in Chromium, so the container
 * lets out only what the node itself needs: HTTP(S) to this Worker's host. What Containers offer (and this does):
 *   - `enableInternet = false`: no public internet; only ports 80 and 443 leave at all, and only where the rules
 *     below allow. Raw TCP and UDP elsewhere (WebRTC, STUN/TURN, other ports) go nowhere. DNS is answered by
 *     Cloudflare's resolvers (the docs say the outbound configuration decides which names resolve).
 *   - `allowedHosts = [BASE_URL's host]`: a deny-by-default allowlist checked by the Containers outbound proxy
 *     (it needs `ContainerProxy` exported from the Worker entry, worker/index.ts). Everything else gets HTTP 520.
 *   - `interceptHttps = true`: HTTPS goes through the same allowlist; the node trusts Cloudflare's per-instance CA
 *     through NODE_EXTRA_CA_CERTS (render-node/Dockerfile).
 * What Containers cannot do: the rules are per container, not per process, so the browser inside could reach the
 * Worker's host just as the node does. The browser is closed inside the node instead (render-node/README.md,
 * "Network isolation"): the page's CSP, a dead proxy for everything but the render's own loopback server, no
 * host-name resolution (so no DNS lookup carries a name out), no WebRTC UDP.
 */
// Types env.ts's RenderNodeContainer namespace (durable-object-classes.ts says why this way round).
declare module "../../durable-object-classes.ts" {
  interface DurableObjectClasses {
    RenderNodeContainer: RenderNodeContainer;
  }
}

export class RenderNodeContainer extends Container<Env> {
  // The image's health endpoint (render-node/src/job/serve-health.ts, GET /healthz), which also says how many jobs
  // the node holds.
  defaultPort = 8080;
  enableInternet = false;
  interceptHttps = true;

  constructor(ctx: DurableObjectState<{}>, env: Env) {
    const config = configOf(env);
    // Locally (wrangler dev runs no Cloudflare containers) the runtime is the local container host's, when one runs.
    const local = !ctx.container && config.LOCAL_CONTAINERS_URL ? withLocalContainer(ctx, config.LOCAL_CONTAINERS_URL) : null;
    super(local?.ctx ?? ctx, env);
    // Before anything else runs here: whether this instance's process still runs (a restarted Worker).
    if (local) void ctx.blockConcurrencyWhile(() => local.container.sync());
    // Set before the base class reads them (after a microtask, in blockConcurrencyWhile). With this class bound, both
    // settings are required (worker/config/setting-rules.ts): a Worker without them answers no request at all.
    this.sleepAfter = config.CONTAINER_SLEEP_AFTER.text;
    this.allowedHosts = [new URL(config.BASE_URL).hostname];
    // NODE_CONCURRENCY is set, not left to the node's default (its core count, which in a container may be the
    // host's rather than the instance's vCPUs).
    this.envVars = {
      STUDIO_URL: config.BASE_URL,
      NODE_KEY: config.CONTAINER_NODE_KEY ?? "",
      NODE_ID: `container-${ctx.id.name ?? ctx.id.toString().slice(0, 8)}`,
      NODE_CONCURRENCY: String(config.CONTAINER_NODE_CONCURRENCY),
    };
  }

  /** This instance's place among render-node-0 … render-node-<max-1> (wakeRenderNodes names them), null if not one of them. */
  get index(): number | null {
    const match = /^render-node-(\d+)$/.exec(this.ctx.id.name ?? "");
    return match ? Number(match[1]) : null;
  }

  override async onActivityExpired(): Promise<void> {
    // A node pulls its work, so no request into the container marks it busy: ask the node and the queue instead.
    // The queue first, then the node: a job claimed in between shows in one of the two (claimed but not yet heard
    // from in the queue's count, or held in the node's).
    const queued = await unclaimedJobsOrOne(this.env);
    const verdict = idleVerdict({ jobsHeld: await this.jobsHeld(), queued, index: this.index, min: configOf(this.env).CONTAINER_MIN_INSTANCES });
    if (verdict.keep) {
      this.renewActivityTimeout();
      return;
    }
    logEvent("info", "containers.idle_stop", { instance: this.ctx.id.name, why: verdict.why });
    this.idleStopping = true;
    await super.onActivityExpired();
  }

  /** Set when this instance stops itself for idleness, until its onStop reads it: that stop is not a lost node. */
  private idleStopping = false;

  /** Set while the base class's alarm runs; a start decided in onStop then waits for its end (see alarm). */
  private inAlarm = false;
  private startAfterAlarm = false;

  override async alarm(props?: AlarmInvocationInfo): Promise<void> {
    this.inAlarm = true;
    try {
      await super.alarm(props);
    } finally {
      this.inAlarm = false;
    }
    // The base class's alarm calls onStop when it finds the container stopped, and then deletes its alarm when
    // nothing is scheduled: a start made inside onStop would run with no alarm loop left to notice its next stop
    // (a minimum instance stopped twice stayed stopped). Started here, after it, the start arms the loop again.
    if (!this.startAfterAlarm) return;
    this.startAfterAlarm = false;
    await this.start().catch((error: unknown) => logEvent("error", "containers.start_failed", { instance: this.ctx.id.name, error }));
  }

  override async onStop(params: { exitCode: number; reason: string }): Promise<void> {
    // However it stopped: stopped for idleness (SIGTERM, exit 0) nothing was queued, but something may be by now;
    // stopped by the platform (a host moved, exit 0) it gave its job back, which needs a node; a death (a crash,
    // SIGKILL, out of memory) leaves its job to be put back once its lease lapses. And one of the
    // CONTAINER_MIN_INSTANCES is kept running whatever the queue holds (restartVerdict).
    await this.restartIfNeeded(`exited with code ${params.exitCode}`);
  }

  override onError(error: unknown): never {
    logEvent("error", "containers.error", { instance: this.ctx.id.name, error });
    this.ctx.waitUntil(this.restartIfNeeded("failed"));
    // The Container class expects the error back (it catches it where it called this).
    throw error;
  }

  /**
   * Starts this instance again when one of the minimum; after its own idle stop, when work was queued since; after any
   * other stop, when work is queued or running (the dead one's among it).
   */
  private async restartIfNeeded(what: string): Promise<void> {
    const idleStop = this.idleStopping;
    this.idleStopping = false;
    const min = configOf(this.env).CONTAINER_MIN_INSTANCES;
    const verdict = idleStop
      ? restartVerdict({ stop: "idle", queued: await unclaimedJobsOrOne(this.env), index: this.index, min })
      : restartVerdict({ stop: "lost", busy: queueBusy(await queueDepthOrOne(this.env)), index: this.index, min });
    logEvent("warn", "containers.instance_lost", { instance: this.ctx.id.name, what, replaced: verdict.restart, why: verdict.why });
    if (!verdict.restart) return;
    if (this.inAlarm) {
      this.startAfterAlarm = true;
      return;
    }
    await this.start().catch((error: unknown) => logEvent("error", "containers.start_failed", { instance: this.ctx.id.name, error }));
  }

  /** Jobs the node in this instance holds, from its health answer; null when it does not answer. */
  private async jobsHeld(): Promise<number | null> {
    try {
      const res = await this.ctx.container!.getTcpPort(this.defaultPort).fetch("http://node/healthz");
      const body = (await res.json()) as { jobs?: unknown };
      return typeof body.jobs === "number" ? body.jobs : null;
    } catch (error) {
      logEvent("warn", "containers.health_unanswered", { instance: this.ctx.id.name, error });
      return null;
    }
  }
}

/** Whether an instance whose sleepAfter passed keeps running, and why. Pure. */
export function idleVerdict(o: { jobsHeld: number | null; queued: number; index: number | null; min: number }): { keep: boolean; why: string } {
  if (o.jobsHeld === null) return { keep: true, why: "its node did not say whether it holds work" };
  if (o.jobsHeld > 0) return { keep: true, why: `its node holds ${o.jobsHeld} job(s)` };
  if (o.queued > 0) return { keep: true, why: `${o.queued} job(s) queued or just claimed` };
  if (o.index !== null && o.index < o.min) return { keep: true, why: `one of the CONTAINER_MIN_INSTANCES (${o.min}) kept running` };
  return { keep: false, why: "no work held or queued, and not one of the CONTAINER_MIN_INSTANCES" };
}

/**
 * How an instance stopped: by its own idle stop (no work held or queued then: `queued` is the work queued or just
 * claimed now), or otherwise (exit 0 or not, an error: `busy` is whether any work is queued or running).
 */
export type InstanceStop = { stop: "idle"; queued: number } | { stop: "lost"; busy: boolean };

/** Whether an instance that stopped is started again, and why. Pure. */
export function restartVerdict(o: InstanceStop & { index: number | null; min: number }): { restart: boolean; why: string } {
  if (o.index !== null && o.index < o.min) return { restart: true, why: `one of the CONTAINER_MIN_INSTANCES (${o.min}) kept running` };
  if (o.stop === "idle") {
    // Another instance's render is no reason: this one found nothing to claim and would again.
    return o.queued > 0
      ? { restart: true, why: `${o.queued} job(s) queued since it stopped idle` }
      : { restart: false, why: "stopped idle, nothing queued since, and not one of the CONTAINER_MIN_INSTANCES" };
  }
  if (o.busy) return { restart: true, why: "work is queued or running" };
  return { restart: false, why: "no work queued or running, and not one of the CONTAINER_MIN_INSTANCES" };
}

/**
 * Jobs queued, or claimed in the last CONTAINER_CLAIM_IN_FLIGHT_MS (a claim's answer reaches its node well within it;
 * until then the node's health answer may not count the job); when they cannot be counted, one (never stopped blind).
 */
async function unclaimedJobsOrOne(env: Env): Promise<number> {
  try {
    const row = await env.DB.prepare("SELECT COUNT(*) AS queued FROM jobs WHERE status = 'queued' OR (status = 'running' AND started_at > ?)")
      .bind(Date.now() - configOf(env).CONTAINER_CLAIM_IN_FLIGHT_MS)
      .first<{ queued: number }>();
    return row?.queued ?? 0;
  } catch (error) {
    logEvent("warn", "containers.queue_unknown", { error, assumed: "one queued job" });
    return 1;
  }
}

/**
 * Starts as many instances as the queue needs (a no-op where no container binding exists, as in local runs and
 * tests). `depth` is the queue's depth when the caller knows it; otherwise it is counted.
 */
export async function wakeRenderNodes(env: Env, depth?: QueueDepth): Promise<void> {
  const binding = env.RENDER_NODE_CONTAINER;
  if (!binding) return;
  const size = nodesForQueue(depth ?? (await queueDepthOrOne(env)), scalingRule(configOf(env)));
  await Promise.all(
    Array.from({ length: size }, (_, i) =>
      // start() returns at once for an instance already running; any error is a start that failed.
      getContainer(binding, `render-node-${i}`)
        .start()
        .catch((error: unknown) => logEvent("error", "containers.start_failed", { instance: `render-node-${i}`, error })),
    ),
  );
}

/** The queue's depth; when it cannot be counted, one render's worth (so work just queued still gets a node), said in the log. */
async function queueDepthOrOne(env: Env): Promise<QueueDepth> {
  try {
    return await queueDepth(env);
  } catch (error) {
    logEvent("warn", "containers.queue_depth_unknown", { error, assumed: "one render" });
    return { ...EMPTY_QUEUE, render: 1 };
  }
}
