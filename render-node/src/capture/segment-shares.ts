// One fixed segment's frames dealt out as contiguous shares to several browsers at once (the render's first
// segment: its live piece is ready after a share's capture rather than a whole segment's), all written into the
// segment's one encoder in frame order. The first share's frames go straight in; a later share's wait in memory
// until every share before it is written, then go in as they come. Past `maxPendingBytes` waiting, its browser waits
// its turn (a later share cannot outrun the earlier ones by more than that). A segment of one share is the ordinary
// case: its frames go straight in. No I/O of its own: the encoder is given (segment-encoder.ts).
import { settled } from "../../../core/settled.ts";
import type { SegmentEncoder } from "./segment-encoder.ts";

/** One share's way into the segment's encoder, as the browser capturing it uses it (render-frame-range.ts). */
export interface ShareInput {
  /** Hands bytes on in frame order; `message` names the frame should the encoder not take them in time. */
  hand(data: Buffer, message: () => string): Promise<void>;
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

interface ShareState {
  /** Handed while a share before it was still being written: bytes, and the frame's name taken when handed. */
  pending: { data: Buffer; message: string }[];
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
        const item = share.pending.shift()!;
        share.pendingBytes -= item.data.length;
        await started().hand(item.data, () => item.message);
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
      return {
        async hand(data, message) {
          if (lost) throw lost.error;
          if (share.live) return started().hand(data, message);
          share.pending.push({ data, message: message() });
          share.pendingBytes += data.length;
          if (share.pendingBytes > options.maxPendingBytes) await share.turn.promise;
        },
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
