// JSON with every object's keys sorted at every level (undefined members left out, as JSON.stringify leaves them):
// `{ a, b }` and `{ b, a }` are one text, so a hash of it is a key. The render cache's key
// (core/render/render-cache-key.ts) and the node's carry key (render-node/src/carry/carry-key.ts) hash it. Pure.
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
