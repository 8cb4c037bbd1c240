// One fixed segment's frames dealt out as contiguous shares to several browsers at once (the render's first
// segment: its live piece is ready after a share's capture rather than a whole segment's), all written into the
// segment's one encoder in frame order. The first share's frames go straight in; a later share's wait in memory
// until every share before it is written, then go in as they come. Past `maxPendingBytes` waiting, its browser waits
// its turn (a later share cannot outrun the earlier ones by more than that). A share that begins inside a hold hands
// "the picture before, again" (handAgain): the last picture written before it, which the share before captured. A
// segment of one share is the ordinary case: its frames go straight in. No I/O of its own: the encoder is given
// (segment-encoder.ts).
import { settled } from "../../../core/settled.ts";
import type { SegmentEncoder } from "./segment-encoder.ts";

/** One share's way into the segment's encoder, as the browser capturing it uses it (render-frame-range.ts). */
export interface ShareInput {
  /** Hands bytes on in frame order (a stream's or a frame's header); `message` names the frame should the encoder not take them in time. */
  hand(data: Buffer, message: () => string): Promise<void>;
  /** Hands a frame's picture on, as `hand`; it is then the last picture written. */
  handPicture(picture: Buffer, message: () => string): Promise<void>;
  /**
   * Hands the last picture written before it again (a frame the page proved the same as the frame before, which an
   * earlier share captured), preceded by `header(picture)` when given.
   */
  handAgain(header: ((picture: Buffer) => Buffer) | null, message: () => string): Promise<void>;
  /** The encoder's failure once it has died, else null. */
  failure(): unknown;
  /**
   * Every frame of the share handed: returns the segment's completion (every share written, the file finished and
   * reported), which the caller awaits later.
   */
  close(): Promise<void>;
  /** The share's capture failed with `error`: the segment is lost, its other shares fail with the same error. */
  abandon(error: unknown): void;
}

/** The encoder as the shares see it: `finish` also reports the finished segment. Started by the first share opened. */
export type ShareTarget = Pick<SegmentEncoder, "hand" | "failure" | "finish" | "abandon">;

export interface SegmentShares {
  /** Share `k`'s input (shares count from 0 in frame order); the first one opened starts the encoder. */
  open(k: number): ShareInput;
}

/** What a share hands: bytes, a picture, or the last picture again (with its header). */
type Handed =
  | { kind: "bytes"; data: Buffer }
  | { kind: "picture"; data: Buffer }
  | { kind: "again"; header: ((picture: Buffer) => Buffer) | null };

interface ShareState {
  /** Handed while a share before it was still being written, with the frame's name taken when handed. */
  pending: { item: Handed; message: string }[];
  pendingBytes: number;
  /** Its frames now go straight to the encoder (every share before it is written). */
  live: boolean;
  closed: boolean;
  /** Resolves when it is live; rejects when the segment is lost. */
  turn: Deferred;
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function deferred(): Deferred {
  let resolve = () => {};
  let reject = (_error: unknown) => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export function segmentShares(count: number, start: () => ShareTarget, options: { maxPendingBytes: number; signal: AbortSignal }): SegmentShares {
  let target: ShareTarget | null = null;
  const started = () => (target ??= start());
  const shares: ShareState[] = Array.from({ length: count }, (_, k) => {
    const turn = deferred();
    void settled(turn.promise); // awaited only by a share past its buffer; its rejection is the segment's loss
    if (k === 0) turn.resolve();
    return { pending: [], pendingBytes: 0, live: k === 0, closed: false, turn };
  });
  const completion = deferred();
  void settled(completion.promise); // awaited by each share's browser once it has no segment left
  let lost: { error: unknown } | null = null;
  // The last picture written: what a frame handed "again" is.
  let lastPicture: Buffer | null = null;
  const write = async (item: Handed, message: () => string) => {
    const encoder = started();
    if (item.kind === "bytes") return encoder.hand(item.data, message);
    if (item.kind === "picture") {
      lastPicture = item.data;
      return encoder.hand(item.data, message);
    }
    // A segment's first share starts with a captured frame, so a later share always has a picture before it.
    if (!lastPicture) throw new Error(`${message()}: no picture before it to repeat`);
    if (item.header) await encoder.hand(item.header(lastPicture), message);
    return encoder.hand(lastPicture, message);
  };
  const bytesOf = (item: Handed) => (item.kind === "again" ? 0 : item.data.length);
  const lose = (error: unknown) => {
    if (lost) return;
    lost = { error };
    target?.abandon();
    for (const share of shares) share.turn.reject(error);
    completion.reject(error);
    options.signal.removeEventListener("abort", onAbort);
  };
  // A cancel or another failure of the render: a browser waiting its turn stops waiting.
  const onAbort = () => lose(options.signal.reason);
  options.signal.addEventListener("abort", onAbort, { once: true });

  // Share k is written and closed: the shares after it are written in turn, each one's waiting frames first.
  const advance = async (k: number) => {
    for (let next = k + 1; next < count; next++) {
      const share = shares[next]!;
      while (share.pending.length > 0) {
        if (lost) return;
        const { item, message } = share.pending.shift()!;
        share.pendingBytes -= bytesOf(item);
        await write(item, () => message);
      }
      share.live = true;
      share.turn.resolve();
      if (!share.closed) return;
    }
    if (lost) return;
    options.signal.removeEventListener("abort", onAbort);
    await started().finish();
    completion.resolve();
  };

  return {
    open(k) {
      const share = shares[k]!;
      started();
      const hand = async (item: Handed, message: () => string) => {
        if (lost) throw lost.error;
        if (share.live) return write(item, message);
        share.pending.push({ item, message: message() });
        share.pendingBytes += bytesOf(item);
        if (share.pendingBytes > options.maxPendingBytes) await share.turn.promise;
      };
      return {
        hand: (data, message) => hand({ kind: "bytes", data }, message),
        handPicture: (data, message) => hand({ kind: "picture", data }, message),
        handAgain: (header, message) => hand({ kind: "again", header }, message),
        failure: () => target?.failure() ?? null,
        close() {
          share.closed = true;
          if (share.live && !lost) void advance(k).catch(lose);
          return completion.promise;
        },
        abandon: lose,
      };
    },
  };
}
