// The node's health endpoint: `GET /healthz` on HEALTH_PORT (off unless set; the container image sets 8080), for a
// container platform or a supervisor to tell a live node from a stuck one. It says only that the process runs and
// its loops have not stopped, and how many jobs it holds (a count: no job, project or key is in the answer), which
// the Worker's container class asks before it stops an instance that looks idle.
import { createServer, type Server } from "node:http";

export interface HealthState {
  nodeId: string;
  startedAt: number;
  /** False once the node is stopping (SIGTERM): the answer turns 503 so nothing new is routed to it. */
  running: () => boolean;
  /** Jobs held now (JobsInHand). */
  jobs?: () => number;
}

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/** The answer to GET /healthz. Pure. */
export function healthAnswer(state: HealthState, now = Date.now()): { status: number; body: Record<string, unknown> } {
  const running = state.running();
  return {
    status: running ? 200 : 503,
    body: { status: running ? "ok" : "stopping", nodeId: state.nodeId, uptimeSeconds: Math.round((now - state.startedAt) / 1000), jobs: state.jobs?.() ?? 0 },
  };
}

export function serveHealth(state: HealthState, port: number, host: string): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://node").pathname;
    if (path !== "/healthz" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "not found: the node answers GET /healthz only" }));
      return;
    }
    const { status, body } = healthAnswer(state);
    res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" }).end(req.method === "HEAD" ? undefined : JSON.stringify(body));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : port,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
