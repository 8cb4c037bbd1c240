// An event stream read the way an attacker holding an old credential would read it: everything it delivers is kept
// as text, so a test can ask whether the stream ended and whether anything written after a credential's end (a file
// name, a render id) ever arrived.
import { expect } from "vitest";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface WatchedStream {
  /** Everything delivered so far. */
  readonly text: string;
  /** True once the server ended the stream. */
  readonly closed: boolean;
  /** Resolves true when the server ends the stream within `ms`. */
  closedWithin(ms: number): Promise<boolean>;
  /** Waits until the delivered text contains `needle` (throws after `ms`). */
  waitFor(needle: string, ms?: number): Promise<void>;
  cancel(): Promise<void>;
}

export function watchStream(res: Response): WatchedStream {
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let closed = false;
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    closed = true;
  })().catch((error: unknown) => {
    // A stream aborted by the server ends as an error on this side: ended all the same.
    closed = true;
    return error;
  });
  return {
    get text() {
      return text;
    },
    get closed() {
      return closed;
    },
    async closedWithin(ms) {
      return Promise.race([ended.then(() => true), sleep(ms).then(() => false)]);
    },
    async waitFor(needle, ms = 3000) {
      const until = Date.now() + ms;
      while (!text.includes(needle)) {
        if (Date.now() > until) throw new Error(`"${needle}" not delivered within ${ms} ms; got: ${text.slice(0, 500)}`);
        await sleep(20);
      }
    },
    async cancel() {
      if (!closed) await reader.cancel().catch(() => undefined); // already ended: nothing to cancel
    },
  };
}
