// Production render nodes as Cloudflare Containers (wrangler.toml [env.production]): each instance runs
// render-node/Dockerfile and pulls jobs from this Worker like any other node, with a node key from a secret.
// Locally there is no Docker engine, so `npm start` and `npm run node` run nodes as processes and this stays unbound.
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
// An instance stops itself once its `sleepAfter` passes with the queue empty (onActivityExpired): a node pulls, so
// no inbound request would ever renew its activity, and a busy node must not be stopped mid-render.
import { Container, getContainer } from "@cloudflare/containers";
import { logEvent } from "../../http/log.ts";
import { configOf } from "../../config/config-of.ts";
import type { Config } from "../../config/config-types.ts";
import type { Env } from "../../env.ts";

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
  // The image's health endpoint (render-node/src/serve-health.ts, GET /healthz).
  defaultPort = 8080;
  // Checked when it passes: an instance with work still queued or running renews instead of stopping.
  sleepAfter = "5m";
  enableInternet = false;
  interceptHttps = true;

  constructor(ctx: DurableObjectState<{}>, env: Env) {
    super(ctx, env);
    // Set before the base class reads it (after a microtask, in blockConcurrencyWhile). With this class bound, both
    // settings are required (worker/config/setting-rules.ts): a Worker without them answers no request at all.
    const config = configOf(env);
    this.allowedHosts = [new URL(config.BASE_URL).hostname];
    // NODE_CONCURRENCY is set, not left to the node's default (its core count, which in a container may be the
    // host's rather than the instance's vCPUs).
    this.envVars = {
      STUDIO_URL: config.BASE_URL,
      NODE_KEY: config.CONTAINER_NODE_KEY ?? "",
      NODE_ID: `container-${ctx.id.toString().slice(0, 8)}`,
      NODE_CONCURRENCY: String(config.CONTAINER_NODE_CONCURRENCY),
    };
  }

  override async onActivityExpired(): Promise<void> {
    // A node pulls its work, so no request into the container marks it busy: ask the queue instead.
    const depth = await queueDepthOrOne(this.env);
    if (queueBusy(depth)) {
      this.renewActivityTimeout();
      return;
    }
    await super.onActivityExpired();
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
