// The studio Worker behind a traced D1 binding (trace-d1.ts), for bench/d1-round-trips.ts: each request's D1 round
// trips are delayed by the modelled distance and counted into answer headers. Only the Worker's own calls are traced;
// the Durable Objects keep the real binding (their D1 work is not on the request's path in the routes measured).
import studio from "../../worker/index.ts";
import type { Env } from "../../worker/env.ts";
import { D1Trace } from "./trace-d1.ts";

// Every Durable Object class the studio exports (the default export, its fetch, is wrapped below).
export * from "../../worker/index.ts";

interface TraceEnv extends Env {
  TRACE_PRIMARY_MS?: string;
  TRACE_REPLICA_MS?: string;
}

export default {
  async fetch(request: Request, env: TraceEnv, ctx: ExecutionContext): Promise<Response> {
    const trace = new D1Trace(env.DB, { primaryMs: Number(env.TRACE_PRIMARY_MS ?? 0), replicaMs: Number(env.TRACE_REPLICA_MS ?? 0) });
    const started = Date.now();
    const res = await studio.fetch(request, { ...env, DB: trace.db }, ctx);
    const out = new Response(res.body, res);
    out.headers.set("X-D1-Primary-Trips", String(trace.counts.primaryWaves));
    out.headers.set("X-D1-Replica-Trips", String(trace.counts.replicaWaves));
    out.headers.set("X-D1-Calls", String(trace.counts.calls));
    out.headers.set("X-Worker-Ms", String(Date.now() - started));
    return out;
  },
} satisfies ExportedHandler<TraceEnv>;
