// The dead proxy of a render's browsers: a loopback port that reads the first line of each proxy request (a
// `CONNECT host:port` for TLS, WebSockets and WebRTC over TCP, an absolute URL for plain HTTP), reports it, and
// closes the connection without an answer. Chromium sends it everything its page CSP and request interception let
// through (network-policy.ts), so nothing a composition does reaches a real socket beyond it.
import { createServer } from "node:net";
import type { AddressInfo, Socket } from "node:net";
import type { BlockedAttempt } from "./blocked-attempt.ts";
import { logDebug } from "../system/debug-log.ts";

export interface NetworkSink {
  port: number;
  close(): Promise<void>;
}

const MAX_REQUEST_LINE = 4096;

/** What the proxy was asked for: `CONNECT example.com:443 HTTP/1.1` → example.com:443; `GET http://x/y HTTP/1.1` → the URL. */
export function attemptFromProxyRequestLine(line: string): BlockedAttempt | null {
  const match = /^([A-Z]+) (\S+) HTTP\/\d/.exec(line);
  if (!match || match[1] === undefined || match[2] === undefined) return null;
  return { channel: match[1] === "CONNECT" ? "connection" : `${match[1]} request`, target: match[2] };
}

export async function startNetworkSink(report: (attempt: BlockedAttempt) => void): Promise<NetworkSink> {
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    let head = "";
    socket.setEncoding("latin1");
    // A client that resets the connection (Chromium giving up on the proxy) is expected; its line, if any, was read.
    socket.on("error", (error) => logDebug("network sink: a connection failed", error));
    socket.on("data", (chunk: string) => {
      head += chunk;
      const end = head.indexOf("\r\n");
      if (end === -1 && head.length < MAX_REQUEST_LINE) return;
      const attempt = attemptFromProxyRequestLine(end === -1 ? head : head.slice(0, end));
      if (attempt) report(attempt);
      socket.destroy();
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((done) => {
        // Chromium may hold idle connections open (preconnects): they would keep close() waiting.
        for (const socket of open) socket.destroy();
        server.close(() => done());
      }),
  };
}
