// Which caller a credential hash names, remembered per isolate. Safe to keep because a hash names one caller
// forever: a personal token is HMAC(secret, userId.nonce), a session id, bot key and node key are 32 random bytes,
// and rotation or revocation makes a new hash or deletes the old one, never points it elsewhere. So the cache can
// only be out of date about whether the credential is still valid, and that is asked of the primary on every
// request (authenticate.ts, request-gate.ts). Bounded: the least recently used entry goes first.
import type { CallerPatch, CredentialKind } from "./resolvers.ts";

export const CREDENTIAL_CACHE_SIZE = 10_000;

export class CredentialCache {
  // A Map iterates in insertion order; re-inserting on every hit keeps the least recently used first.
  private readonly entries = new Map<string, CallerPatch>();

  constructor(private readonly size = CREDENTIAL_CACHE_SIZE) {}

  /** The cached caller for a credential hash, marked as just used. */
  get(kind: CredentialKind, hash: string): CallerPatch | undefined {
    const key = `${kind}:${hash}`;
    const caller = this.entries.get(key);
    if (caller) {
      this.entries.delete(key);
      this.entries.set(key, caller);
    }
    return caller;
  }

  /** Remembers the caller a credential hash named at the primary. */
  set(kind: CredentialKind, hash: string, caller: CallerPatch): void {
    const key = `${kind}:${hash}`;
    this.entries.delete(key);
    this.entries.set(key, caller);
    if (this.entries.size > this.size) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** Forgets a credential that turned out invalid. */
  delete(kind: CredentialKind, hash: string): void {
    this.entries.delete(`${kind}:${hash}`);
  }
}

/** The isolate's cache (module state lives as long as the isolate). */
export const credentialCache = new CredentialCache();
