// The studio Worker behind a traced D1 binding (trace-d1.ts), for bench/d1-round-trips.ts: each request's D1 round
// trips are delayed by the modelled distance and counted into answer headers. The Durable Objects' D1 calls made
// while a request is answered are traced with it (rooms.ts: a render or batch start writes its rows from the room).
import studio from "../../worker/index.ts";
import type { Env } from "../../worker/env.ts";
import { traceRooms, untracedBinding } from "./rooms.ts";
import { D1Trace } from "./trace-d1.ts";

// Every Durable Object class the studio exports (the default export, its fetch, is wrapped below).
export * from "../../worker/index.ts";

interface TraceEnv extends Env {
  TRACE_PRIMARY_MS?: string;
  TRACE_REPLICA_MS?: string;
}

export default {
  async fetch(request: Request, env: TraceEnv, ctx: ExecutionContext): Promise<Response> {
    const trace = new D1Trace(untracedBinding(env.DB), { primaryMs: Number(env.TRACE_PRIMARY_MS ?? 0), replicaMs: Number(env.TRACE_REPLICA_MS ?? 0) });
    const started = Date.now();
    // One request at a time (the bench sends them so): the rooms' calls meanwhile are this request's.
    const untrace = traceRooms(trace, env.DB);
    let res: Response;
    try {
      res = await studio.fetch(request, { ...env, DB: trace.db }, ctx);
    } finally {
      untrace();
    }
    const out = new Response(res.body, res);
    out.headers.set("X-D1-Primary-Trips", String(trace.counts.primaryWaves));
    out.headers.set("X-D1-Replica-Trips", String(trace.counts.replicaWaves));
    out.headers.set("X-D1-Calls", String(trace.counts.calls));
    out.headers.set("X-Worker-Ms", String(Date.now() - started));
    return out;
  },
} satisfies ExportedHandler<TraceEnv>;
