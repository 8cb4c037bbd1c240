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
// queued it counts the queue (jobs queued or running, segments of split renders included) and starts
// `nodesForQueue(depth)` instances, `render-node-0` … `render-node-<n-1>`: one per CONTAINER_JOBS_PER_INSTANCE jobs,
// at least CONTAINER_MIN_INSTANCES, at most CONTAINER_MAX_INSTANCES (keep it ≤ max_instances in wrangler.toml).
// An instance stops itself once its `sleepAfter` passes with the queue empty (onActivityExpired): a node pulls, so
// no inbound request would ever renew its activity, and a busy node must not be stopped mid-render.
import { Container, getContainer } from "@cloudflare/containers";
import { configOf } from "../config/config-of.ts";
import type { Config } from "../config/parse-config.ts";
import type { Env } from "../env.ts";

export interface ScalingRule {
  min: number;
  max: number;
  jobsPerInstance: number;
}

/** The scaling rule from the settings (limits, defaults and the older CONTAINER_POOL_SIZE: worker/config/settings.ts). */
export function scalingRule(config: Pick<Config, "CONTAINER_MIN_INSTANCES" | "CONTAINER_MAX_INSTANCES" | "CONTAINER_JOBS_PER_INSTANCE">): ScalingRule {
  return { min: config.CONTAINER_MIN_INSTANCES, max: config.CONTAINER_MAX_INSTANCES, jobsPerInstance: config.CONTAINER_JOBS_PER_INSTANCE };
}

/** Instances to run for `depth` jobs queued or running. Pure. */
export function nodesForQueue(depth: number, rule: ScalingRule): number {
  const wanted = Math.ceil(Math.max(0, depth) / rule.jobsPerInstance);
  return Math.max(rule.min, Math.min(wanted, rule.max));
}

/** Jobs queued or running that a render node must do (the queue's depth). */
export async function queueDepth(env: Env): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'running')").first<{ n: number }>();
  return row?.n ?? 0;
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
    this.envVars = { STUDIO_URL: config.BASE_URL, NODE_KEY: config.CONTAINER_NODE_KEY ?? "", NODE_ID: `container-${ctx.id.toString().slice(0, 8)}` };
  }

  override async onActivityExpired(): Promise<void> {
    // A node pulls its work, so no request into the container marks it busy: ask the queue instead.
    const depth = await queueDepth(this.env).catch(() => 1);
    if (depth > 0) {
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
export async function wakeRenderNodes(env: Env, depth?: number): Promise<void> {
  const binding = env.RENDER_NODE_CONTAINER;
  if (!binding) return;
  const size = nodesForQueue(depth ?? (await queueDepth(env).catch(() => 1)), scalingRule(configOf(env)));
  await Promise.all(
    Array.from({ length: size }, (_, i) =>
      getContainer(binding, `render-node-${i}`)
        .start()
        .catch(() => undefined), // already running
    ),
  );
}
