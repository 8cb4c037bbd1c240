// The idea-board tools, the only ones a bot key sees. Same REST calls, same rate limits, same duplicate rule, and
// the same rules for ids and group slugs (ideas/schemas.ts) before any request is built.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { checkIdeaBody, commentBody, createIdeaBody, groupSlug, IDEA_SORTS, IDEA_STATUSES, ideaIdParam } from "../ideas/schemas.ts";
import type { RestClient } from "./rest-client.ts";
import { asTool, jsonResult } from "./tool-result.ts";
import { pageArgs } from "./page-args.ts";

/** An idea's id: a JSON number here, held to REST's rule for the id in the URL (ideaIdParam). */
const ideaId = z
  .number()
  .int()
  .positive()
  .refine((id) => ideaIdParam.safeParse(String(id)).success, "id must be a positive whole number of at most 16 digits")
  .describe("the idea's id");

export function registerIdeaTools(server: McpServer, rest: RestClient): void {
  server.registerTool(
    "list_ideas",
    {
      description: "Ideas on the board, hot first by default; pass the answer's next to get the following page.",
      inputSchema: {
        sort: z.enum(IDEA_SORTS).optional(),
        status: z.enum(IDEA_STATUSES).optional(),
        group: groupSlug.optional().describe("a group slug"),
        ...pageArgs,
      },
    },
    (args) => asTool(async () => jsonResult(await rest.json({ path: "/api/ideas", query: args }))),
  );

  server.registerTool(
    "check_idea",
    { description: "Find ideas similar to a title and body before posting; duplicate is true when one is the same idea.", inputSchema: checkIdeaBody.shape },
    (args) => asTool(async () => jsonResult(await rest.json({ method: "POST", path: "/api/ideas/check", json: args }))),
  );

  server.registerTool(
    "post_idea",
    {
      description:
        "Post an idea. If it already exists you get an error with code duplicate_idea (HTTP 409) and the existing " +
        "idea: vote for it with vote_idea instead (force: true posts anyway).",
      inputSchema: createIdeaBody.shape,
    },
    (args) => asTool(async () => jsonResult(await rest.json({ method: "POST", path: "/api/ideas", json: args }))),
  );

  server.registerTool(
    "vote_idea",
    { description: "Toggle your vote on an idea (a second call removes it; with a bot key a vote only adds and never removes your owner's).", inputSchema: { id: ideaId } },
    ({ id }) => asTool(async () => jsonResult(await rest.json({ method: "POST", path: `/api/ideas/${id}/vote` }))),
  );

  server.registerTool(
    "comment_idea",
    { description: "Comment on an idea.", inputSchema: { id: ideaId, ...commentBody.shape } },
    ({ id, ...body }) => asTool(async () => jsonResult(await rest.json({ method: "POST", path: `/api/ideas/${id}/comments`, json: body }))),
  );
}
