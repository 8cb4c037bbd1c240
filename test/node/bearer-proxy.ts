// A forwarding proxy on 127.0.0.1 that adds "Authorization: Bearer <token>" to every request that has none, for
// driving the real studio with a tool that cannot send a credential (the MCP conformance CLI: see
// mcp-conformance.test.ts). Everything else passes through untouched, both ways: method, path and query, every
// header the client sent (Host and Origin included, so the Worker judges them as it would the client's own), the
// body, and the answer streamed back as it comes (event streams included).
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface BearerProxy {
  /** The proxy's own origin, e.g. http://127.0.0.1:41234. */
  url: string;
  /** Where requests go from now on (the studio starts after the proxy, whose origin it must know). */
  forwardTo(origin: string, token: string): void;
  close(): Promise<void>;
}

export async function startBearerProxy(): Promise<BearerProxy> {
  let target: { origin: URL; token: string } | null = null;
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    if (!target) {
      res.writeHead(503, { "Content-Type": "text/plain" }).end("bearer proxy: no target yet");
      return;
    }
    const headers = { ...req.headers };
    headers.authorization ??= `Bearer ${target.token}`;
    const upstream = request(
      { host: target.origin.hostname, port: target.origin.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (err) => {
      // Said in the answer, where the conformance check that made the request reports it.
      if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" });
      res.end(`bearer proxy: ${err.message}`);
    });
    req.pipe(upstream);
  };
  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwardTo: (origin, token) => (target = { origin: new URL(origin), token }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
