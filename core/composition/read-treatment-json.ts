// The envelope HyperFrames 0.8.170 gives its audio treatment attributes (data-fx-chain, data-automation): a JSON
// object with `"version": 1` and one list (`nodes`, `lanes`). Anything else is refused whole, as there. Pure.

/** The attribute's list, or why HyperFrames would refuse the value. */
export function readTreatmentList(raw: string, listKey: string): { list: unknown[]; problem: null } | { list: null; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { list: null, problem: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (typeof json !== "object" || json === null) return { list: null, problem: "not a JSON object" };
  const value = json as Record<string, unknown>;
  if (value.version !== 1) return { list: null, problem: `version ${String(value.version)}, not 1` };
  const list = value[listKey];
  if (!Array.isArray(list)) return { list: null, problem: `no \`${listKey}\` array` };
  return { list, problem: null };
}
