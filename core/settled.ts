// A promise's end without its value or error, for a second observer of a promise whose owner awaits it and handles
// its error: a waiter that only needs "it is over" (a lock waiting its turn), or an early start that must not be
// reported as an unhandled rejection before its owner awaits it. Not for dropping an error nobody handles: there,
// log it (worker/http/log.ts) or return it as a value.
export function settled(promise: Promise<unknown>): Promise<void> {
  return promise.then(
    () => undefined,
    () => undefined, // the owner's await sees this error and handles it
  );
}
