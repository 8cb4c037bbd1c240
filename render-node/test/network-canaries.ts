// Loopback canaries for the network-isolation tests: a TCP port standing for "the internet", another standing for
// the studio (or a preview, or the node), and a UDP port for STUN/TURN. Each records every connection and packet,
// even one that never sends a byte, with its first line when there is one.
import dgram from "node:dgram";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export type CanaryName = "tcp" | "studio" | "udp";

export interface Hit {
  canary: CanaryName;
  /** The first line received ("GET /fetch HTTP/1.1"), "connection" for a silent one, or the size of a UDP packet. */
  what: string;
}

export interface Canaries {
  ports: Record<CanaryName, number>;
  /** Hits since the last reset (tests empty it). */
  hits: Hit[];
  /** Every hit since the canaries started, never emptied. */
  all: Hit[];
  /** Project files use placeholders for the ports: __CANARY__, __STUDIO__ and __UDP__ (each "127.0.0.1:<port>"). */
  fill(text: string): string;
  close(): Promise<void>;
}

function tcpCanary(canary: CanaryName, record: (hit: Hit) => void, open: Set<Socket>): Promise<Server> {
  const server = createServer((socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    let said = false;
    socket.on("error", () => {});
    socket.once("data", (chunk) => {
      said = true;
      record({ canary, what: chunk.toString("latin1").split("\r\n")[0] ?? "" });
      // An answer, so a request that got here would look like it succeeded (the page would read "ok").
      socket.end("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\naccess-control-allow-origin: *\r\ncontent-length: 2\r\n\r\nok");
    });
    socket.on("close", () => {
      if (!said) record({ canary, what: "connection" });
    });
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

export async function startCanaries(): Promise<Canaries> {
  const hits: Hit[] = [];
  const all: Hit[] = [];
  const record = (hit: Hit) => {
    hits.push(hit);
    all.push(hit);
  };
  const open = new Set<Socket>();
  const tcp = await tcpCanary("tcp", record, open);
  const studio = await tcpCanary("studio", record, open);
  const udp = dgram.createSocket("udp4");
  udp.on("message", (message) => record({ canary: "udp", what: `${message.length} bytes` }));
  await new Promise<void>((done) => udp.bind(0, "127.0.0.1", done));
  const ports = {
    tcp: (tcp.address() as AddressInfo).port,
    studio: (studio.address() as AddressInfo).port,
    udp: udp.address().port,
  };
  return {
    ports,
    hits,
    all,
    fill: (text) =>
      text
        .replaceAll("__CANARY__", `127.0.0.1:${ports.tcp}`)
        .replaceAll("__STUDIO__", `127.0.0.1:${ports.studio}`)
        .replaceAll("__UDP__", `127.0.0.1:${ports.udp}`),
    close: async () => {
      for (const socket of open) socket.destroy();
      tcp.close();
      studio.close();
      await new Promise<void>((done) => udp.close(() => done()));
    },
  };
}
