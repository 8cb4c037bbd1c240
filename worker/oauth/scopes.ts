// The scopes an MCP client can be granted through OAuth, and what each lets it do. A personal token or bot key
// has no scopes: it is the person (or the bot) itself. An OAuth grant carries only the scopes the person approved
// on the consent page, and every MCP tool (tool-scopes.ts) and every REST route it reaches (route-scopes.ts)
// checks them. Pure: the dashboard, docs and tests read the same list.

export const SCOPES = {
  "projects:read": "See your projects, their files and renders, and your storage use",
  "projects:write": "Create and delete projects, write and delete their files, delete renders",
  render: "Start and cancel renders, and use render nodes for snapshots, checks and previews",
  ideas: "Read the idea board, post ideas, vote and comment as you",
} as const;

export type Scope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

export function isScope(value: unknown): value is Scope {
  return typeof value === "string" && Object.hasOwn(SCOPES, value);
}

/** The known scopes among `values`, each once, in catalogue order (an unknown or repeated one is dropped). */
export function knownScopes(values: readonly unknown[]): Scope[] {
  const wanted = new Set(values);
  return SCOPE_NAMES.filter((scope) => wanted.has(scope));
}
