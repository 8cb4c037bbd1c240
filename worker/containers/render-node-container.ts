// Production render nodes as Cloudflare Containers (wrangler.toml [env.production]): each instance runs
// render-node/Dockerfile and pulls jobs from this Worker like any other node, with a node key from a secret.
// Locally there is no Docker engine, so `npm start` runs the node as a process instead and this stays unbound.
import { Container, getContainer } from "@cloudflare/containers";
import type { Env } from "../env.ts";

/** The one host a render node talks to: this Worker's API origin (STUDIO_URL). Unparseable → none. */
function workerHost(baseUrl: string | undefined): string[] {
  try {
    return baseUrl ? [new URL(baseUrl).hostname] : [];
  } catch {
    return [];
  }
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
  // Nodes pull work, so nothing calls into them; keep an instance warm a while after its last job.
  sleepAfter = "15m";
  enableInternet = false;
  interceptHttps = true;

  constructor(ctx: DurableObjectState<{}>, env: Env) {
    super(ctx, env);
    // Set before the base class reads it (after a microtask, in blockConcurrencyWhile).
    this.allowedHosts = workerHost(env.BASE_URL);
    this.envVars = { STUDIO_URL: env.BASE_URL ?? "", NODE_KEY: env.CONTAINER_NODE_KEY ?? "", NODE_ID: `container-${ctx.id.toString().slice(0, 8)}` };
  }
}

/** Makes sure the pool's instances run (a no-op where no container binding exists, as in local runs and tests). */
export async function wakeRenderNodes(env: Env): Promise<void> {
  const binding = env.RENDER_NODE_CONTAINER;
  if (!binding) return;
  const size = Math.max(1, Math.min(Number(env.CONTAINER_POOL_SIZE ?? 1) || 1, 16));
  await Promise.all(
    Array.from({ length: size }, (_, i) =>
      getContainer(binding, `render-node-${i}`)
        .start()
        .catch(() => undefined), // already running
    ),
  );
}
