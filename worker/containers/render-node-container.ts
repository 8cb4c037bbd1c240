// Production render nodes as Cloudflare Containers (wrangler.toml [env.production]): each instance runs
// render-node/Dockerfile and pulls jobs from this Worker like any other node, with a node key from a secret.
// Locally there is no Docker engine, so `npm start` runs the node as a process instead and this stays unbound.
import { Container, getContainer } from "@cloudflare/containers";
import type { Env } from "../env.ts";

export class RenderNodeContainer extends Container<Env> {
  // Nodes pull work, so nothing calls into them; keep an instance warm a while after its last job.
  sleepAfter = "15m";
  enableInternet = true;

  constructor(ctx: DurableObjectState<{}>, env: Env) {
    super(ctx, env);
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
