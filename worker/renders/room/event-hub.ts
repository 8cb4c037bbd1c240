// Server-Sent Events fan-out for one room: any number of subscribers, a keep-alive comment every 15 s, and
// subscribers that went away removed on the first failed write. Streams close after a render's `end` event. Each
// subscriber is kept with the credential it was opened with, so a credential's end (rotation, revocation, sign-out)
// ends its streams at once, before anything else is written to them (stream-watch.ts).
import type { StreamCredential } from "../../auth/stream-credential.ts";
import { logEvent } from "../../http/log.ts";

const encoder = new TextEncoder();
const KEEP_ALIVE_MS = 15_000;

export function formatEvent(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

type Writer = WritableStreamDefaultWriter<Uint8Array>;

/** Closes a stream; when its reader went away first, close fails with nothing left to close, and that is logged. */
function closeStream(writer: Writer): void {
  void writer.close().catch((error: unknown) => logEvent("info", "stream.close_skipped", { error, why: "reader gone" }));
}

export interface SubscribeOptions {
  /** The credential the stream was opened with. */
  credential: StreamCredential;
  /** `first` already ends the story (a resumed stream that missed the render's end, an ended render): close after it. */
  closeAfterFirst?: boolean;
}

export class EventHub {
  private readonly subscribers = new Map<Writer, StreamCredential>();
  private keepAlive: ReturnType<typeof setInterval> | null = null;

  /** `refused`: a credential that ended (or is ending) opens no stream here (stream-watch.ts). */
  constructor(private readonly refused: (credential: StreamCredential) => boolean) {}

  get size(): number {
    return this.subscribers.size;
  }

  /** The credentials of the open streams. */
  credentials(): StreamCredential[] {
    return [...this.subscribers.values()];
  }

  /** Opens a stream that starts with `first` (the snapshot, or the events a resuming client missed). */
  subscribe(first: string, signal: AbortSignal | undefined, options: SubscribeOptions): Response {
    // Checked here, synchronously with adding the subscriber, so no await lets an end slip in between.
    if (this.refused(options.credential)) {
      return Response.json({ error: "unauthorized: invalid or revoked token" }, { status: 401 });
    }
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    void this.write(writer, first);
    if (options.closeAfterFirst) {
      closeStream(writer);
      return this.response(readable);
    }
    this.subscribers.set(writer, options.credential);
    signal?.addEventListener("abort", () => this.drop(writer));
    this.keepAlive ??= setInterval(() => this.broadcastRaw(": keep-alive\n\n"), KEEP_ALIVE_MS);
    return this.response(readable);
  }

  private response(readable: ReadableStream<Uint8Array>): Response {
    return new Response(readable, {
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-cache, no-transform",
        "X-Accel-Buffering": "no",
      },
    });
  }

  broadcast(event: string, data: unknown, id?: number): void {
    this.broadcastRaw(formatEvent(event, data, id));
  }

  /** Ends every stream (after an `end` event; a client reconnects, with Last-Event-ID, to follow the next render). */
  closeAll(): void {
    for (const writer of this.subscribers.keys()) closeStream(writer);
    this.subscribers.clear();
    this.stopKeepAlive();
  }

  /** Ends the streams whose credential `ends` names, with a last comment saying why; how many ended. */
  endWhere(ends: (credential: StreamCredential) => boolean, why: string): number {
    let ended = 0;
    for (const [writer, credential] of this.subscribers) {
      if (!ends(credential)) continue;
      this.subscribers.delete(writer);
      void this.write(writer, `: ${why}\n\n`);
      closeStream(writer);
      ended++;
    }
    if (this.subscribers.size === 0) this.stopKeepAlive();
    return ended;
  }

  /** Encoded once for every stream: the same bytes go to each (a stream's reader never writes to its chunks). */
  private broadcastRaw(text: string): void {
    const bytes = encoder.encode(text);
    for (const writer of this.subscribers.keys()) void this.write(writer, bytes);
  }

  private async write(writer: Writer, chunk: string | Uint8Array): Promise<void> {
    try {
      await writer.write(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    } catch (error) {
      // The client went away: forget it. Its stream is over; the room and every other stream carry on.
      logEvent("info", "stream.client_gone", { error, answer: "subscriber dropped" });
      this.drop(writer);
    }
  }

  private drop(writer: Writer): void {
    if (!this.subscribers.delete(writer)) return;
    // Already errored (the write that failed): abort has nothing left to end, which the log line says.
    void writer.abort().catch((error: unknown) => logEvent("info", "stream.abort_skipped", { error, why: "already errored" }));
    if (this.subscribers.size === 0) this.stopKeepAlive();
  }

  private stopKeepAlive(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = null;
  }
}
