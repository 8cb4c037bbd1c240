// Server-Sent Events fan-out for one room: any number of subscribers, a keep-alive comment every 15 s, and
// subscribers that went away removed on the first failed write. Streams close after a render's `end` event.
const encoder = new TextEncoder();
const KEEP_ALIVE_MS = 15_000;

export function formatEvent(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class EventHub {
  private readonly subscribers = new Set<WritableStreamDefaultWriter<Uint8Array>>();
  private keepAlive: ReturnType<typeof setInterval> | null = null;

  get size(): number {
    return this.subscribers.size;
  }

  /** Opens a stream that starts with `first` (the snapshot, or the events a resuming client missed); with
   * `closeAfterFirst` (those include the render's end) it ends right after them. */
  subscribe(first: string, signal: AbortSignal | undefined, closeAfterFirst = false): Response {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    void this.write(writer, first);
    if (closeAfterFirst) {
      void writer.close().catch(() => undefined);
      return this.response(readable);
    }
    this.subscribers.add(writer);
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
    for (const writer of this.subscribers) void writer.close().catch(() => undefined);
    this.subscribers.clear();
    this.stopKeepAlive();
  }

  private broadcastRaw(text: string): void {
    for (const writer of this.subscribers) void this.write(writer, text);
  }

  private async write(writer: WritableStreamDefaultWriter<Uint8Array>, text: string): Promise<void> {
    try {
      await writer.write(encoder.encode(text));
    } catch {
      this.drop(writer);
    }
  }

  private drop(writer: WritableStreamDefaultWriter<Uint8Array>): void {
    if (!this.subscribers.delete(writer)) return;
    void writer.abort().catch(() => undefined);
    if (this.subscribers.size === 0) this.stopKeepAlive();
  }

  private stopKeepAlive(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = null;
  }
}
