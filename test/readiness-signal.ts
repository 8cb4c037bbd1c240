// Work a global setup leaves running in vitest's main process (the prepared data folder, the shared studio) that
// test files, each in a process of its own, wait for before they start: a loopback port that answers once the work
// has settled, with "ready" or its error. The global setups start such work without awaiting it, so the files that
// need none of it (pure, workerd, light end-to-end) start at once instead of after it (test/README.md, "How long the
// suite takes").
import { once } from "node:events";
import { connect, createServer } from "node:net";

type Outcome = { ready: true } | { ready: false; error: string };

export interface ReadinessSignal {
  port: number;
  close: () => void;
}

/** Serves `work`'s outcome on a loopback port: every connection gets it, as one JSON line, once `work` settles. */
export async function serveReadiness(work: Promise<unknown>): Promise<ReadinessSignal> {
  const outcome = work.then(
    (): Outcome => ({ ready: true }),
    (error: unknown): Outcome => ({ ready: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
  const server = createServer((socket) => {
    socket.on("error", (err) => console.warn(`readiness signal: a test file's socket failed (${err.message})`));
    void outcome.then((answer) => socket.end(`${JSON.stringify(answer)}\n`));
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  // vitest's process must not outlive the run because a file kept a connection open.
  server.unref();
  const address = server.address();
  if (!address || typeof address === "string") throw new Error(`the readiness signal has no TCP address: ${address}`);
  return {
    port: address.port,
    close: () => {
      if (server.listening) server.close();
    },
  };
}

/** Waits for the work behind `port` (served by serveReadiness); throws its error, naming `what`, if it failed. */
export async function awaitReadiness(port: number, what: string): Promise<void> {
  const socket = connect(port, "127.0.0.1");
  socket.setEncoding("utf8");
  let text = "";
  socket.on("data", (chunk: string) => (text += chunk));
  await once(socket, "close");
  const answer = (text ? JSON.parse(text) : { ready: false, error: "no answer (its global setup closed the signal)" }) as Outcome;
  if (!answer.ready) throw new Error(`${what} failed: ${answer.error}`);
}
