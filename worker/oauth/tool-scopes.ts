// Which MCP tools an OAuth grant sees: a tool is registered for a grant only when the grant holds every scope the
// tool's REST calls need, so a tool it may not use is neither listed nor callable ("tool not found"). Every REST
// call a tool makes is checked again per route (route-scopes.ts). Default deny: a tool missing from this table
// (one added later) is hidden from every grant until it is given scopes here; test/worker/oauth-scopes.test.ts
// checks each tool a personal token sees has an entry. Resources read project files (projects:read); prompts
// only teach, and need none.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Scope } from "./scopes.ts";

export const TOOL_SCOPES: Readonly<Record<string, readonly Scope[]>> = {
  get_account: ["projects:read"],
  list_projects: ["projects:read"],
  get_project: ["projects:read"],
  list_files: ["projects:read"],
  read_file: ["projects:read"],
  lint: ["projects:read"],
  get_render: ["projects:read"],
  list_renders: ["projects:read"],
  create_project: ["projects:write"],
  delete_project: ["projects:write"],
  write_file: ["projects:write"],
  delete_file: ["projects:write"],
  delete_render: ["projects:write"],
  render: ["render"],
  cancel_render: ["render"],
  render_batch: ["render"],
  get_batch: ["projects:read"],
  cancel_batch: ["render"],
  check: ["render"],
  // A snapshot runs on a render node, then reads the frames it wrote among the project's files.
  snapshot: ["render", "projects:read"],
  list_ideas: ["ideas"],
  check_idea: ["ideas"],
  post_idea: ["ideas"],
  vote_idea: ["ideas"],
  comment_idea: ["ideas"],
};

const TOOL_METHODS = new Set<PropertyKey>(["registerTool", "tool"]);
const RESOURCE_METHODS = new Set<PropertyKey>(["registerResource", "resource"]);

/** Whether a grant with `granted` may see the tool `name`. */
export function grantMaySee(name: string, granted: readonly Scope[]): boolean {
  const needed = Object.hasOwn(TOOL_SCOPES, name) ? TOOL_SCOPES[name] : undefined;
  return needed !== undefined && needed.every((scope) => granted.includes(scope));
}

/**
 * `server` as the register functions see it for a grant: registering a tool the grant may not see, or a resource
 * without projects:read, does nothing (the register functions stay unaware of OAuth).
 */
export function scopedServer(server: McpServer, granted: readonly Scope[]): McpServer {
  return new Proxy(server, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      // Task tools register through server.experimental.tasks (worker/mcp/task-tool.ts): the same rule applies.
      if (prop === "experimental") return scopedExperimental(target, granted);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      if (TOOL_METHODS.has(prop)) return (name: string, ...rest: unknown[]) => (grantMaySee(name, granted) ? Reflect.apply(method, target, [name, ...rest]) : undefined);
      if (RESOURCE_METHODS.has(prop)) return (...args: unknown[]) => (granted.includes("projects:read") ? Reflect.apply(method, target, args) : undefined);
      return (...args: unknown[]) => Reflect.apply(method, target, args);
    },
  });
}

/** `server.experimental` for a grant: registerToolTask registers only a tool the grant may see. */
function scopedExperimental(server: McpServer, granted: readonly Scope[]): McpServer["experimental"] {
  const tasks = server.experimental.tasks;
  const registerToolTask = ((name: string, ...rest: unknown[]) =>
    grantMaySee(name, granted) ? Reflect.apply(tasks.registerToolTask, tasks, [name, ...rest]) : undefined) as typeof tasks.registerToolTask;
  return { tasks: { registerToolTask } as typeof tasks };
}
