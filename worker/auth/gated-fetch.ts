// Outbound fetches behind the request's gate (request-gate.ts): the one effect that is not a binding. The app runs
// each request inside `runGated`, and the Worker's fetch, installed once, waits for that request's credential
// check before a request leaves (at once when the caller is already cleared or nothing is checked).
import { AsyncLocalStorage } from "node:async_hooks";
import type { RequestGate } from "./request-gate.ts";

const gates = new AsyncLocalStorage<RequestGate>();
let installed = false;

/** Replaces the global fetch with one that asks the current request's gate first (once per isolate). */
export function installGatedFetch(): void {
  if (installed) return;
  installed = true;
  const real = globalThis.fetch;
  globalThis.fetch = function gatedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const gate = gates.getStore();
    if (!gate || gate.cleared) return real(input, init);
    return gate.clear().then(() => real(input, init));
  } as typeof fetch;
}

/** Runs one request's work with its gate as the current one. */
export function runGated<T>(gate: RequestGate, work: () => T): T {
  return gates.run(gate, work);
}
