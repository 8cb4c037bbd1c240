// One request's credential check, when the caller was taken from the isolate's cache (credential-cache.ts) and
// only "is this credential still valid?" remains to be asked of D1's primary. The request goes on at once as the
// cached caller; the check travels with the request's first D1 call (gated-d1.ts), or runs on its own when the
// request makes none. Until it has passed:
// - reads go ahead (their results reach nobody unless it passes: the app holds the response, app.ts);
// - writes either carry the guard in their own batch (atomic: they roll back if it fails) or wait for the verdict;
// - every other effect (R2 writes, Durable Object calls, outbound fetches) waits for the verdict (gated-bindings.ts).
// When the check fails the cache entry is dropped, effects throw the 401, and the app answers the request again
// without the cached caller.
import { failedOnAnyGuard } from "../db/sql-guard.ts";
import { unauthorized } from "../http/errors.ts";
import { credentialCache } from "./credential-cache.ts";
import { guardStatement, lookupStatement } from "./credential-guard.ts";
import type { CallerPatch, CredentialKind, CredentialLookup } from "./resolvers.ts";
import { settled } from "../../core/settled.ts";

export interface Speculation {
  kind: CredentialKind;
  hash: string;
  lookup: CredentialLookup;
  /** The cached caller the request runs as until the check answers. */
  caller: CallerPatch;
  /** The 401 reason when the credential turns out invalid (middleware.ts). */
  problem: string;
}

export class RequestGate {
  private speculation: Speculation | null = null;
  /** The verdict once known; null while unknown. */
  private known: boolean | null = null;
  /** The verdict being fetched, by whichever call carried the check first. */
  private verdict: Promise<boolean> | null = null;
  private readonly now = Date.now();

  /**
   * `primary`: the request's real D1 binding, for the check on its own (never a session: replicas may lag).
   * `mayTrustCache`: false when the request could not be answered a second time (a body too large to keep), or is
   * that second answer: then `identify` looks the credential up first, as without a cache.
   */
  constructor(
    private readonly primary: D1Database,
    private readonly mayTrustCache: boolean,
  ) {}

  /** Runs the request as a cached caller; false when it may not, or the gate checks another credential already. */
  speculate(speculation: Speculation): boolean {
    if (!this.mayTrustCache) return false;
    if (this.speculation) return this.speculation.kind === speculation.kind && this.speculation.hash === speculation.hash;
    this.speculation = speculation;
    return true;
  }

  /** True when effects may go ahead without a check: no cached caller, or the check passed. */
  get cleared(): boolean {
    return this.speculation === null || this.known === true;
  }

  /** True once the check has failed. */
  get refused(): boolean {
    return this.known === false;
  }

  /** The 401 for a credential that failed its check. */
  refusal(): Error {
    return unauthorized(this.speculation?.problem ?? "invalid or revoked token");
  }

  /** Whether the caller is valid: the check in flight, or the check run now on its own (one round trip). */
  passed(): Promise<boolean> {
    if (this.cleared) return Promise.resolve(true);
    if (this.known === false) return Promise.resolve(false);
    this.verdict ??= this.checkAlone();
    return this.verdict;
  }

  /** For effects: resolves once the caller is known valid, throws the 401 when not. */
  async clear(): Promise<void> {
    if (!(await this.passed())) throw this.refusal();
  }

  /** Lets a read carry the check: starts it alongside the read (the same round trip) unless it is under way. */
  alongsideRead(): void {
    // The verdict is kept and awaited by clear() or guardedBatch() when it matters; here it only starts early.
    if (!this.cleared && this.known === null) void settled(this.passed());
  }

  /**
   * Runs a write batch so that it commits only for a valid caller: as is when the caller is cleared, else with
   * the guard first in the batch (one round trip, rolled back when the guard fails). `send` is the binding's batch
   * (of the database or of a Sessions API session: a batch that writes goes to the primary either way).
   */
  async guardedBatch<T>(
    statements: D1PreparedStatement[],
    prepareOn: D1Database | D1DatabaseSession,
    send: (statements: D1PreparedStatement[]) => Promise<D1Result<T>[]>,
  ): Promise<D1Result<T>[]> {
    if (this.cleared) return send(statements);
    if (this.known === false) throw this.refusal();
    const spec = this.speculation!;
    const sent = send([guardStatement(prepareOn, spec.lookup, spec.hash, this.now), ...statements]);
    // The first call to carry the check decides the verdict. A batch that failed on one of the work's own guards
    // (worker/db/sql-guard.ts) ran past the credential guard, its first statement, so the credential was found,
    // and a credential hash names one caller forever; any other failure says nothing certain (the guard or the work
    // may have failed), so the verdict then comes from the check on its own.
    const decided = sent.then(
      (results) => this.settle(((results[0] as D1Result<Record<string, unknown>> | undefined)?.results[0]) ?? null),
      (err: unknown) => (failedOnAnyGuard(err) ? this.settleFound() : this.checkAlone()),
    );
    this.verdict ??= decided;
    void settled(decided); // awaited below when it matters; never an unhandled rejection
    try {
      const results = await sent;
      if (!this.settle((results[0] as D1Result<Record<string, unknown>>).results[0] ?? null)) throw this.refusal();
      return results.slice(1);
    } catch (err) {
      if (this.refused || !(await (this.verdict ?? decided))) throw this.refusal();
      throw err;
    }
  }

  /** The check as a plain lookup on the primary. */
  private async checkAlone(): Promise<boolean> {
    const spec = this.speculation!;
    const row = await lookupStatement(this.primary, spec.lookup, spec.hash, this.now).first<Record<string, unknown>>();
    return this.settle(row);
  }

  /** Records that the credential guard found the credential (without its row: the cached caller stays). */
  private settleFound(): boolean {
    if (this.known === false || !this.speculation) return false; // a refusal is final
    this.known = true;
    return true;
  }

  /** Records what the primary said: the caller is valid when the row names the same caller as the cache did. */
  private settle(row: Record<string, unknown> | null): boolean {
    if (this.known === false || !this.speculation) return false; // a refusal is final
    const { kind, hash, lookup, caller } = this.speculation;
    const fresh = row ? lookup.callerOf(row) : null;
    const valid = fresh !== null && lookup.identityOf(fresh) === lookup.identityOf(caller);
    if (valid) {
      // The row came with the check: the cache keeps the freshest copy (names and the like) for the next request.
      credentialCache.set(kind, hash, fresh);
      this.known = true;
    } else {
      credentialCache.delete(kind, hash);
      this.known = false;
    }
    return valid;
  }
}
