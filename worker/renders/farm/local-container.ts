// The container runtime of a Durable Object (`ctx.container`) for local runs, where wrangler dev has no Docker engine
// to run Cloudflare Containers with: the same calls, answered by the local container host (scripts/lib/
// local-containers.ts, at LOCAL_CONTAINERS_URL), which runs each instance as a render-node process started the way
// the image starts it. Only this boundary is stood in for: RenderNodeContainer and the Container class above it
// (start, the sleepAfter alarm, onActivityExpired, onStop, onError) run as in production.
//
// `running` is synchronous in the real runtime, so this one keeps what it last heard: true from start() until the
// host says the process exited. After a restart of the Worker the Durable Object asks the host once (sync()) before
// anything else runs in it (RenderNodeContainer's constructor).
import { logEvent } from "../../http/log.ts";

/** What the host answers about an instance. */
interface InstanceAnswer {
  running: boolean;
  /** The host port each container port is published on (the node's HEALTH_PORT is mapped like `docker run -p`). */
  ports: Record<string, number>;
  /** Set once the process has exited: its code, 128 + the signal's number when a signal ended it. */
  exitCode?: number;
}

/** How long one exit wait may hold a request at the host before it is asked again. */
const EXIT_WAIT_MS = 20_000;

/** The message the Container class reads an exit code from (getExitCodeFromError in @cloudflare/containers). */
const exitError = (code: number) => new Error(`container exited with unexpected exit code: ${code}`);

export class LocalContainer {
  #running = false;
  #ports: Record<string, number> = {};
  /** Settles when the running process exits: resolves with its code. */
  #exit: Promise<number> | null = null;
  #started: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: string,
    private readonly instance: string,
  ) {}

  get running(): boolean {
    return this.#running;
  }

  /** Learns from the host whether this instance's process runs (a Durable Object constructed anew). */
  async sync(): Promise<void> {
    const answer = await this.#call<InstanceAnswer>("GET", "");
    this.#ports = answer.ports;
    if (answer.running && !this.#running) {
      this.#running = true;
      this.#exit = this.#waitForExit();
    }
  }

  start(options?: { env?: Record<string, string>; entrypoint?: string[] }): void {
    this.#running = true;
    this.#started = this.#call<InstanceAnswer>("POST", "/start", { env: options?.env ?? {}, entrypoint: options?.entrypoint ?? null }).then((answer) => {
      this.#ports = answer.ports;
    });
    this.#exit = this.#started.then(
      () => this.#waitForExit(),
      (error: unknown) => {
        this.#running = false;
        throw error;
      },
    );
  }

  /** Resolves when the process exits with 0; rejects with its exit code otherwise, as the real runtime does. */
  monitor(): Promise<void> {
    const exit = this.#exit ?? Promise.resolve(0);
    return exit.then((code) => {
      if (code !== 0) throw exitError(code);
    });
  }

  signal(signo: number): void {
    void this.#call("POST", "/signal", { signo }).catch((error: unknown) => logEvent("error", "containers.local_signal_failed", { instance: this.instance, signo, error }));
  }

  async destroy(): Promise<void> {
    if (!this.#running) return;
    await this.#call("POST", "/signal", { signo: 9 });
    await this.#exit?.catch(() => 0);
  }

  /** A port of the instance, reached where the host published it. */
  getTcpPort(port: number): Pick<Fetcher, "fetch"> {
    return {
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        await this.#started;
        const published = this.#ports[String(port)];
        // The real runtime's words for a port nobody listens on (the Container class retries on them).
        if (!this.#running || published === undefined) throw new Error("the container is not listening");
        const url = new URL(input instanceof Request ? input.url : String(input));
        return fetch(`http://127.0.0.1:${published}${url.pathname}${url.search}`, init).catch((error: unknown) => {
          throw new Error("the container is not listening", { cause: error });
        });
      },
    };
  }

  // Egress rules (allowedHosts, interceptHttps) are Cloudflare's outbound proxy; a local process has the machine's
  // network. The browser inside the node stays closed by the node itself (render-node/README.md, "Network isolation").
  async interceptOutboundHttp(): Promise<void> {}
  async interceptOutboundHttps(): Promise<void> {}
  async interceptAllOutboundHttp(): Promise<void> {}
  async setInactivityTimeout(): Promise<void> {}

  async #waitForExit(): Promise<number> {
    for (;;) {
      const answer = await this.#call<InstanceAnswer>("GET", `/exit?waitMs=${EXIT_WAIT_MS}`).catch((error: unknown) => {
        // The host gone (npm start stopped) ends its processes too.
        logEvent("warn", "containers.local_host_unreachable", { instance: this.instance, error, assumed: "exited" });
        return { running: false, ports: {}, exitCode: 1 } satisfies InstanceAnswer;
      });
      if (!answer.running) {
        this.#running = false;
        return answer.exitCode ?? 0;
      }
    }
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.host}/instances/${encodeURIComponent(this.instance)}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } }),
    });
    if (!res.ok) throw new Error(`the local container host answered ${res.status} to ${method} ${path || "/"}: ${await res.text()}`);
    return (await res.json()) as T;
  }
}

/**
 * The Durable Object's state with `container` answered by the local host, for a class bound without Cloudflare's
 * runtime: the real state object (the Durable Object base class accepts no other), given its own `container`.
 */
export function withLocalContainer<Props>(ctx: DurableObjectState<Props>, host: string): { ctx: DurableObjectState<Props>; container: LocalContainer } {
  const container = new LocalContainer(host, ctx.id.name ?? ctx.id.toString());
  Object.defineProperty(ctx, "container", { value: container, configurable: true });
  return { ctx, container };
}
