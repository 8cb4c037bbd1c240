// Which tools a message calls plainly (no `task` in the call's params). The server is made anew for every request
// (stateless), so a task-capable tool is registered for that one request as the message needs it: as a plain tool
// for a plain call (today's answer: wait a while, then the render or a handle), and as a task tool otherwise (a
// task-augmented call gets its task at once; tools/list shows taskSupport "optional"). A JSON-RPC batch that calls
// the same tool both ways gets the task tool, and its plain call then waits for the end. Pure.

type Message = { method?: unknown; params?: { name?: unknown; task?: unknown } };

export function plainToolCalls(message: unknown): Set<string> {
  const messages = (Array.isArray(message) ? message : [message]) as Message[];
  const calls = messages.filter((m) => m?.method === "tools/call" && typeof m.params?.name === "string");
  const tasked = new Set(calls.filter((m) => m.params!.task !== undefined).map((m) => m.params!.name as string));
  return new Set(calls.map((m) => m.params!.name as string).filter((name) => !tasked.has(name)));
}
