// A caller's JSON object kept and handed back (render variables, a render's metadata): what it may weigh and hold,
// checked once here so each option only names its limits. Pure.
import * as z from "zod";

/**
 * A JSON object's type where it crosses a Durable Object's RPC: `unknown` values, or a recursive JSON type, have no
 * type there (the states carrying it would be `never`), so a nested value is an `object`.
 */
export type JsonObject = Record<string, string | number | boolean | null | object>;

/**
 * A value of a JsonObject, for a zod record: any JSON value at run time (the limits are checked by
 * jsonObjectProblem), typed as JsonObject's values. An `unknown` schema, so the OpenAPI document can show it.
 */
export const jsonObjectValue = (): z.ZodType<JsonObject[string]> => z.unknown() as z.ZodType<JsonObject[string]>;

export interface JsonObjectLimits {
  /** Serialised size, UTF-8 bytes of JSON.stringify. */
  bytes: number;
  /** Keys at the top level. */
  keys: number;
  /** Nesting: the object itself is level 1. */
  depth: number;
  keyLength: number;
}

/** Depth of a JSON value: 0 for a scalar, 1 for a flat object or array, and so on (stops counting past `limit`). */
function depthOf(value: unknown, limit: number): number {
  if (!value || typeof value !== "object") return 0;
  let deepest = 0;
  for (const child of Object.values(value as Record<string, unknown>)) {
    deepest = Math.max(deepest, depthOf(child, limit));
    if (deepest > limit) break;
  }
  return deepest + 1;
}

/**
 * Null when `value` is a JSON object within `limits`; otherwise what is wrong, for a 400 or a CLI error. `wanted`
 * says what to give instead when the value is not an object at all ("a JSON object keyed by …, such as …").
 */
export function jsonObjectProblem(value: unknown, limits: JsonObjectLimits, wanted: string): string | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return `give ${wanted}`;
  const keys = Object.keys(value);
  if (keys.length > limits.keys) return `${keys.length} keys; at most ${limits.keys}`;
  // A schema's record would assign these keys, not keep them: refused rather than turned into something else.
  const reserved = keys.find((key) => key === "__proto__" || key === "constructor" || key === "prototype");
  if (reserved !== undefined) return `key "${reserved}" is reserved`;
  // A key is named in log lines and messages: no control or bidirectional-control characters in it.
  const unprintable = keys.find((key) => /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(key));
  if (unprintable !== undefined) return `key ${JSON.stringify(unprintable.slice(0, 40))} has control characters`;
  const long = keys.find((key) => key === "" || key.length > limits.keyLength);
  if (long !== undefined) return `key ${JSON.stringify(long.slice(0, 40))} must be 1 to ${limits.keyLength} characters`;
  const bytes = new TextEncoder().encode(JSON.stringify(value)).length;
  if (bytes > limits.bytes) return `${bytes} bytes as JSON; at most ${limits.bytes}`;
  const depth = depthOf(value, limits.depth);
  if (depth > limits.depth) return `nested deeper than ${limits.depth} levels`;
  return null;
}
