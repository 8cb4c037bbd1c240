// The Durable Objects' D1 calls counted too: a room's D1 work on a request's path (a render or batch start writes
// its rows from the ProjectRoom) costs the request a round trip as the Worker's own does. Durable Objects of the
// Worker's own classes run in its isolate (under `wrangler dev` and in vitest's workerd alike), so their bindings
// share the class of the Worker's: while `traceRooms` is on, every D1 call made through that class (the Durable
// Objects', whose bindings the Worker never sees) goes through the request's trace. One request at a time: the
// bench and the tests send them one after another.
import type { D1Trace } from "./trace-d1.ts";

type Methods = Pick<D1Database, "prepare" | "batch" | "exec" | "dump" | "withSession">;
const NAMES = ["prepare", "batch", "exec", "dump", "withSession"] as const;

/** The untraced methods of the class of `sample`, captured before any patch (patches are undone before the next). */
function originalsOf(proto: Methods): Methods {
  return Object.fromEntries(NAMES.map((name) => [name, proto[name]])) as unknown as Methods;
}

/** `db` calling the class's own methods, whatever is patched on it meanwhile. */
function untraced(db: D1Database, originals: Methods): D1Database {
  return Object.fromEntries(NAMES.map((name) => [name, (...args: unknown[]) => Reflect.apply(originals[name], db, args)])) as unknown as D1Database;
}

/**
 * Traces every D1 binding of the class of `sample` into `trace` until the returned undo is called. The trace's own
 * binding must be made with `untracedBinding` (else its calls would be counted twice).
 */
export function traceRooms(trace: D1Trace, sample: D1Database): () => void {
  const proto = Object.getPrototypeOf(sample) as Methods;
  const originals = originalsOf(proto);
  for (const name of NAMES) {
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      value(this: D1Database, ...args: unknown[]) {
        return Reflect.apply(trace.over(untraced(this, originals))[name], null, args);
      },
    });
  }
  return () => {
    for (const name of NAMES) Object.defineProperty(proto, name, { configurable: true, writable: true, value: originals[name] });
  };
}

/** `db` as the trace's own real binding: its calls skip the patch of traceRooms. */
export function untracedBinding(db: D1Database): D1Database {
  return untraced(db, originalsOf(Object.getPrototypeOf(db) as Methods));
}
