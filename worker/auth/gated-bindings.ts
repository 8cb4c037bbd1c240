// A request's bindings behind its RequestGate (request-gate.ts): the environment a cached caller's request runs with
// (authenticate.ts). By construction, not route by route: every D1 database, R2 bucket and Durable Object namespace
// in the environment is wrapped by its class, so a binding added later is gated too (test/worker/credential-gate.test.ts checks each
// binding of the test environment is recognised).
// - D1: gated-d1.ts.
// - R2: get, head and list go at once; everything else (put, delete, multipart uploads) waits for the check.
// - Durable Objects: ids are computed at once; every call on a stub (fetch or RPC) waits for the check.
// - KV (OAuth grants, worker/oauth/): get, getWithMetadata and list go at once; put and delete wait for the check.
// Other bindings (the dashboard's static assets, version metadata) and settings pass through.
import { envWith } from "../config/config-of.ts";
import type { Env } from "../env.ts";
import { gatedD1 } from "./gated-d1.ts";
import type { RequestGate } from "./request-gate.ts";

const R2_READS = new Set<PropertyKey>(["get", "head", "list"]);
const KV_READS = new Set<PropertyKey>(["get", "getWithMetadata", "list"]);
const NAMESPACE_STUBS = new Set<PropertyKey>(["get", "getByName"]);
// A stub's own data, and `then`: a stub is not a promise, and awaiting one must not become a gated call.
const STUB_PLAIN = new Set<PropertyKey>(["id", "name", "then"]);

type Method = (...args: unknown[]) => unknown;

// Reflect.apply, never method.apply or .bind: on an RPC stub every property, `apply` and `bind` too, is a remote call.
const call = (method: Method, target: object, args: unknown[]) => Reflect.apply(method, target, args);

/** Calls `method` once the gate is cleared (at once when it already is). */
function afterCheck(gate: RequestGate, target: object, method: Method): Method {
  return (...args) => (gate.confirmed ? call(method, target, args) : gate.clear().then(() => call(method, target, args)));
}

/** An object whose methods all wait for the check, except those named in `free`. */
function gateMethods<T extends object>(real: T, gate: RequestGate, free: Set<PropertyKey>, wrapResult?: (prop: PropertyKey, result: unknown) => unknown): T {
  return new Proxy(real, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      const method = value as Method;
      if (free.has(prop)) {
        return (...args: unknown[]) => (wrapResult ? wrapResult(prop, call(method, target, args)) : call(method, target, args));
      }
      return afterCheck(gate, target, method);
    },
  });
}

function gateBucket(bucket: R2Bucket, gate: RequestGate): R2Bucket {
  // resumeMultipartUpload is synchronous and does nothing by itself; the upload it returns has only effects.
  return gateMethods(bucket, gate, new Set([...R2_READS, "resumeMultipartUpload"]), (prop, result) =>
    prop === "resumeMultipartUpload" ? gateMethods(result as object, gate, new Set()) : result,
  );
}

function gateNamespace(namespace: DurableObjectNamespace, gate: RequestGate): DurableObjectNamespace {
  // Every method of a namespace only computes (ids, stubs, a jurisdiction's namespace); a stub's calls are the effects.
  const free = new Set<PropertyKey>(["idFromName", "idFromString", "newUniqueId", "jurisdiction", ...NAMESPACE_STUBS]);
  return gateMethods(namespace, gate, free, (prop, result) => {
    if (NAMESPACE_STUBS.has(prop)) return gateMethods(result as object, gate, STUB_PLAIN);
    if (prop === "jurisdiction") return gateNamespace(result as DurableObjectNamespace, gate);
    return result;
  });
}

type BindingKind = "d1" | "r2" | "durable-objects" | "kv";

// The runtime's classes of the bindings with effects. A Fetcher (the assets, a service binding) answers every
// property name with a remote method, so it cannot be told by its methods; by its class it can.
const BINDING_CLASSES: Record<string, BindingKind> = { D1Database: "d1", R2Bucket: "r2", DurableObjectNamespace: "durable-objects", KvNamespace: "kv" };

/** Which binding with effects a value is, by its class; a plain object with D1's methods is a wrapped D1 (the bench's trace). */
export function bindingKind(value: unknown): BindingKind | null {
  if (typeof value !== "object" || value === null) return null;
  const proto: unknown = Object.getPrototypeOf(value);
  const name = (proto as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  if (typeof name === "string" && name in BINDING_CLASSES) return BINDING_CLASSES[name]!;
  const plain = proto === Object.prototype;
  const methods = value as Record<string, unknown>;
  return plain && typeof methods.prepare === "function" && typeof methods.batch === "function" ? "d1" : null;
}

// Which gate an environment made by gatedEnv belongs to, for `identify` to hand it the cached caller.
const gates = new WeakMap<object, RequestGate>();

/** The gate of a request's environment (none for an environment not made by gatedEnv). */
export function gateOf(env: Env): RequestGate | undefined {
  return gates.get(env);
}

/** The environment of one request, with its effects behind the gate. */
export function gatedEnv(env: Env, gate: RequestGate): Env {
  const gated: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(env)) {
    const kind = bindingKind(value);
    if (kind === "d1") gated[name] = gatedD1(value as D1Database, gate);
    else if (kind === "r2") gated[name] = gateBucket(value as R2Bucket, gate);
    else if (kind === "durable-objects") gated[name] = gateNamespace(value as DurableObjectNamespace, gate);
    else if (kind === "kv") gated[name] = gateMethods(value as KVNamespace, gate, KV_READS);
  }
  const out = envWith(env, gated as Partial<Env>);
  gates.set(out, gate);
  return out;
}
