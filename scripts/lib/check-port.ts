// Whether a TCP port is free, asked the only reliable way: by binding it for a moment. `npm start` refuses a taken
// port instead of letting wrangler fail quietly while the health check talks to whatever already answers there.
import { createServer } from "node:net";

export class PortInUseError extends Error {
  readonly port: number;
  constructor(port: number, host: string, suggestion: number | null) {
    const next = suggestion === null ? "choose another with PORT=<port> npm start" : `run PORT=${suggestion} npm start to use the next free port`;
    super(`port ${port} on ${host} is already in use (another studio or another program is listening there); stop it, or ${next}`);
    this.name = "PortInUseError";
    this.port = port;
  }
}

/** Resolves true when `port` can be bound on `host` (the probe is closed again at once). */
export function isPortFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE" || error.code === "EACCES") resolve(false);
      else reject(error);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** The first free port after `port`, looking at most `tries` ports further; null if none. */
export async function nextFreePort(port: number, host: string, tries = 20): Promise<number | null> {
  for (let candidate = port + 1; candidate <= Math.min(65535, port + tries); candidate++) {
    if (await isPortFree(candidate, host)) return candidate;
  }
  return null;
}

/** Throws PortInUseError (naming the next free port) when `port` is taken on `host`. */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (await isPortFree(port, host)) return;
  throw new PortInUseError(port, host, await nextFreePort(port, host));
}
