// The verdict on one cached caller (authenticate.ts): "is this credential still valid?", asked of D1's primary
// while the request already runs as the caller the isolate remembered. The request's D1 work carries the question
// (gated-d1.ts puts the credential guard first in each batch sent before the verdict), or it is asked on its own
// when nothing else carries it (an effect waiting for it, a read in a session, the end of the request).
// A refusal is final: the cache entry is dropped and every later effect, and the answer, is the 401.
import { settled } from "../../core/settled.ts";
import { unauthorized } from "../http/errors.ts";
import { credentialCache } from "./credential-cache.ts";
import { guardStatement, lookupStatement } from "./credential-guard.ts";
import type { CallerPatch, CredentialKind, CredentialLookup } from "./resolvers.ts";

/** A credential the isolate has cached, and the caller it named. */
export interface CachedCredential {
  kind: CredentialKind;
  hash: string;
  lookup: CredentialLookup;
  caller: CallerPatch;
  /** The 401's reason when the credential turns out invalid. */
  problem: string;
}

/** A batch sender: the database's or a Sessions API session's. */
type Send = <T>(statements: D1PreparedStatement[]) => Promise<D1Result<T>[]>;

/**
 * Where a batch goes, as far as is known before it is sent: to the primary (the database's own batch); a session's
 * batch its sender says writes (worker/db/write-batch.ts: D1 runs a batch that writes on the primary); or a
 * session's other batch, which any copy may answer (a replica, for reads).
 */
export type Reach = "primary" | "writes" | "any copy";

export class RequestGate {
  /** The verdict once known; null while unknown. */
  private known: boolean | null = null;
  /** The check on its own, once started. */
  private alone: Promise<boolean> | null = null;
  private readonly now = Date.now();

  /** `primary`: the request's real D1 binding (never a session: a replica may not yet know of a rotation). */
  /**
   * `askEarly`: a request that reads only (GET, HEAD) asks the primary on its own as soon as it reads through a
   * session, beside the read (the verdict is what its answer waits for); any other request waits for its write
   * batch to carry the guard, so that the check and the write stay one round trip however long the handler
   * computes between its reads and its write.
   */
  constructor(
    private readonly primary: D1Database,
    readonly credential: CachedCredential,
    private readonly askEarly: boolean,
  ) {}

  /** True once the primary has confirmed the caller: effects and D1 calls then go as they are. */
  get confirmed(): boolean {
    return this.known === true;
  }

  /** The 401 for a credential that failed its check. */
  refusal(): Error {
    return unauthorized(this.credential.problem);
  }

  /** Whether the caller is valid: known already, or asked on its own now (one round trip, shared by every asker). */
  passed(): Promise<boolean> {
    if (this.known !== null) return Promise.resolve(this.known);
    this.alone ??= this.checkAlone();
    return this.alone;
  }

  /** For effects: resolves once the caller is confirmed, throws the 401 when not. */
  async clear(): Promise<void> {
    if (!(await this.passed())) throw this.refusal();
  }

  /**
   * Sends a batch so that it runs only for a valid caller: as is once confirmed, else with the credential guard
   * first (one round trip, one transaction: nothing in it commits when the guard fails). The guard's row is the
   * verdict when the primary answered the batch: the database's own batch, or a session's whose result says so (D1's
   * `meta.served_by_primary`). A failed batch says nothing of which statement failed but its error's wording, which
   * is never read: the verdict is then the plain lookup's (its row is the value), started alongside a batch that may
   * fail by design (one its sender says writes: its guards refuse it) so that the failure costs no second trip.
   */
  async guarded<T>(statements: D1PreparedStatement[], prepareOn: D1Database | D1DatabaseSession, send: Send, reach: Reach): Promise<D1Result<T>[]> {
    if (this.known === true) return send<T>(statements);
    if (this.known === false) throw this.refusal();
    // Awaited when it matters: by a failure below, or by the answer (authenticate.ts), which handles its error.
    if (reach === "writes" || (reach === "any copy" && this.askEarly)) void settled(this.passed());
    const { lookup, hash } = this.credential;
    let results: D1Result<T>[];
    try {
      results = await send<T>([guardStatement(prepareOn, lookup, hash, this.now), ...statements]);
    } catch (err) {
      if (!(await this.passed())) throw this.refusal();
      // A read in a session may have met a replica that does not know the credential yet (a copy a moment behind
      // the primary, which has just said the caller is valid): the work goes again, as is. A batch that writes ran
      // on the primary, so its failure is the work's own (a guard of its own refused it).
      if (reach === "any copy") return send<T>(statements);
      throw err;
    }
    const guard = results[0] as D1Result<Record<string, unknown>> | undefined;
    if (reach === "primary" || guard?.meta.served_by_primary === true) this.settle(guard?.results[0] ?? null);
    if (this.known === false) throw this.refusal();
    return results.slice(1);
  }

  /** The check as a plain lookup on the primary. */
  private async checkAlone(): Promise<boolean> {
    const { lookup, hash } = this.credential;
    const row = await lookupStatement(this.primary, lookup, hash, this.now).first<Record<string, unknown>>();
    return this.settle(row);
  }

  /** Records what the primary said: the caller is valid when the row names the same caller as the cache did. */
  private settle(row: Record<string, unknown> | null): boolean {
    if (this.known !== null) return this.known; // the first answer stands
    const { kind, hash, lookup, caller } = this.credential;
    const fresh = row ? lookup.callerOf(row) : null;
    const valid = fresh !== null && lookup.identityOf(fresh) === lookup.identityOf(caller);
    if (valid) credentialCache.set(kind, hash, fresh); // the freshest copy (names and the like) for the next request
    else credentialCache.delete(kind, hash);
    this.known = valid;
    return valid;
  }
}
