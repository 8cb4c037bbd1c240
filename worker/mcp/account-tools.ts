// The account tool: who the token belongs to and what they store against their quota, so an agent can see room
// before it writes. GET /api/me without the token and curl line: the agent holds the token already, and a tool's
// answer may be kept in a transcript where a credential should not be.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RestClient } from "./rest-client.ts";
import { restOutput } from "./output-schema.ts";
import { asTool, toolResult } from "./tool-result.ts";

interface Account extends Record<string, unknown> {
  user: { name: string };
  storage: { used: number; limit: number; files: number; fileLimit: number };
}

export function registerAccountTools(server: McpServer, rest: RestClient): void {
  server.registerTool(
    "get_account",
    {
      description:
        "Who you are, and your storage: bytes used and the limit (project files and renders together), files used and " +
        "the file limit. Past either limit writes fail with storage_quota_exceeded; delete files, projects or renders to make room.",
      inputSchema: {},
      outputSchema: restOutput("getMe").omit({ token: true, curl: true }),
    },
    () =>
      asTool(async () => {
        const { token: _token, curl: _curl, ...account } = await rest.json<Account>({ path: "/api/me" });
        const { used, limit, files, fileLimit } = account.storage;
        return toolResult(rest.origin, `You are ${account.user.name}. Storage: ${used} of ${limit} bytes, ${files} of ${fileLimit} files.`, account);
      }),
  );
}
