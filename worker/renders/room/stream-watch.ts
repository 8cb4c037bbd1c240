// How a credential's end reaches a room's open streams. Every rotation, revocation and sign-out tells the rooms of
// the user's projects before it answers (auth/end-streams.ts); the room then ends the streams opened with that
// credential at once, synchronously, so nothing broadcast after the call reaches them, and remembers the end for a
// while so that a stream whose request was checked just before the end and arrives just after it is refused too.
// A notification that never arrives (a room that failed to answer, a session that expired on its own, a change made
// in D1 by hand) is caught by the backstop: while streams are open, the room asks D1 every STREAM_RECHECK_MS which
// of their credentials are still valid, in one query for all of them (stream-recheck.ts), and ends the rest. A D1
// that cannot answer for STREAM_UNCONFIRMED_MS ends every stream: an unchecked stream does not stay open.
// A held answer (POST .../render?wait=1, answered with the render's log when it ends) is watched the same way
// (`hold`): its credential's end answers it at once, as a 401, instead of with what the render wrote afterwards.
import { endsCredential, type CredentialEnd, type StreamCredential } from "../../auth/stream-credential.ts";
import { logEvent } from "../../http/log.ts";
import { endedCredentials } from "./stream-recheck.ts";

export const STREAM_RECHECK_MS = 5_000;
const STREAM_UNCONFIRMED_MS = 3 * STREAM_RECHECK_MS;
/** How long an end is remembered: longer than a request takes between its credential check and the room. A hash
 * never becomes valid again, so one credential's end may be kept long; an end of every credential of a kind (every
 * app's grant, at rotation) is kept briefly, so that an app connected again afterwards is not refused. */
const END_REMEMBERED_MS = 10 * 60_000;
const KIND_END_REMEMBERED_MS = 30_000;

/** What the watch needs of the room's streams (render-feed.ts). */
export interface WatchedStreams {
  streamCredentials(): StreamCredential[];
  endStreamsWhere(ends: (credential: StreamCredential) => boolean, why: string): number;
}

/** A held answer's watch: `ended` resolves when its credential ends; `release` once it was answered. */
export interface Hold {
  ended: Promise<void>;
  release(): void;
}

export class StreamWatch {
  private readonly ends = new Map<string, { end: CredentialEnd; until: number }>();
  private readonly holds = new Map<symbol, { credential: StreamCredential; end: () => void }>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private confirmedAt = Date.now();
  private checking = false;

  constructor(
    private readonly db: D1Database,
    private readonly streams: () => WatchedStreams,
  ) {}

  /** Whether a credential ended here lately: it opens no stream. */
  refused(credential: StreamCredential): boolean {
    const now = Date.now();
    for (const [key, { end, until }] of this.ends) {
      if (until <= now) this.ends.delete(key);
      else if (endsCredential(end, credential)) return true;
    }
    return false;
  }

  /** A credential ended: its streams and held answers end now, and it opens none for a while. How many ended. */
  end(end: CredentialEnd): number {
    this.ends.set(`${end.kind}:${end.id ?? "*"}`, { end, until: Date.now() + (end.id === undefined ? KIND_END_REMEMBERED_MS : END_REMEMBERED_MS) });
    let ended = 0;
    for (const [key, held] of this.holds) {
      if (!endsCredential(end, held.credential)) continue;
      this.holds.delete(key);
      held.end();
      ended++;
    }
    return ended + this.streams().endStreamsWhere((credential) => endsCredential(end, credential), "the credential of this stream ended");
  }

  /** Watches a held answer's credential until `release`. */
  hold(credential: StreamCredential): Hold {
    const key = Symbol("hold");
    const ended = new Promise<void>((resolve) => this.holds.set(key, { credential, end: resolve }));
    this.opened();
    return { ended, release: () => void this.holds.delete(key) };
  }

  /** A stream opened: the backstop runs while any is open. */
  opened(): void {
    if (this.timer) return;
    this.confirmedAt = Date.now();
    this.timer = setInterval(() => void this.recheck(), STREAM_RECHECK_MS);
  }

  private async recheck(): Promise<void> {
    const open = [...this.streams().streamCredentials(), ...[...this.holds.values()].map((held) => held.credential)];
    if (open.length === 0) {
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      return;
    }
    if (this.checking) return;
    this.checking = true;
    const now = Date.now();
    try {
      const ended = await endedCredentials(this.db, open, now);
      this.confirmedAt = now;
      for (const credential of ended) this.end({ kind: credential.kind, id: credential.id });
      if (ended.length > 0) logEvent("info", "streams.ended_by_recheck", { credentials: ended.length });
    } catch (error) {
      logEvent("error", "streams.recheck_failed", { error });
      if (Date.now() - this.confirmedAt > STREAM_UNCONFIRMED_MS) {
        this.streams().endStreamsWhere(() => true, "the credential of this stream could not be checked");
        for (const held of this.holds.values()) held.end();
        this.holds.clear();
      }
    } finally {
      this.checking = false;
    }
  }
}
