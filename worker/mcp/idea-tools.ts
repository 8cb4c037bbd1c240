// The idea-board tools, the only ones a bot key sees. Same REST calls, same rate limits, same duplicate rule, and
// the same rules for ids and group slugs (ideas/schemas.ts) before any request is built.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { checkIdeaBody, commentBody, createIdeaBody, groupSlug, IDEA_SORTS, IDEA_STATUSES, ideaIdParam } from "../ideas/schemas.ts";
import type { RestClient } from "./rest-client.ts";
import { restOutput } from "./output-schema.ts";
import { nextText } from "./result-text.ts";
import { asTool, toolResult } from "./tool-result.ts";
import { pageArgs } from "./page-args.ts";

/** An idea's id: a JSON number here, held to REST's rule for the id in the URL (ideaIdParam). */
const ideaId = z
  .number()
  .int()
  .positive()
  .refine((id) => ideaIdParam().safeParse(String(id)).success, "id must be a positive whole number of at most 16 digits")
  .describe("the idea's id");

interface Idea {
  id: number;
  title: string;
  votes: number;
  status: string;
}

/** The absolute REST URL of an idea (GET it for its enrichments and comments). */
const ideaLinks = z.object({ idea: z.string().describe("GET: the idea with its enrichments and comments") }).describe("absolute REST URLs");
const ideaLine = (idea: Idea) => `- #${idea.id} ${idea.title} (${idea.votes} votes, ${idea.status})`;

export function registerIdeaTools(server: McpServer, rest: RestClient): void {
  const linksOf = (id: number) => ({ idea: `${rest.origin}/api/ideas/${id}` });
  server.registerTool(
    "list_ideas",
    {
      description: "Ideas on the board, hot first by default; pass the answer's next to get the following page.",
      inputSchema: {
        sort: z.enum(IDEA_SORTS).optional(),
        status: z.enum(IDEA_STATUSES).optional(),
        group: groupSlug().optional().describe("a group slug"),
        ...pageArgs,
      },
      outputSchema: restOutput("listIdeas"),
    },
    (args) =>
      asTool(async () => {
        const answer = await rest.json<{ ideas: Idea[]; next: string | null }>({ path: "/api/ideas", query: args });
        return toolResult(rest.origin, `${answer.ideas.length} ideas.${nextText(answer.next)}\n${answer.ideas.map(ideaLine).join("\n")}`.trim(), answer);
      }),
  );

  server.registerTool(
    "check_idea",
    {
      description: "Find ideas similar to a title and body before posting; duplicate is true when one is the same idea.",
      inputSchema: checkIdeaBody().shape,
      outputSchema: restOutput("checkIdea"),
    },
    (args) =>
      asTool(async () => {
        const answer = await rest.json<{ duplicate: boolean; similar: Array<{ score: number; idea: Idea }> }>({ method: "POST", path: "/api/ideas/check", json: args });
        const head = answer.duplicate ? "A duplicate exists: vote for it (vote_idea) rather than posting." : `No duplicate; ${answer.similar.length} similar.`;
        return toolResult(rest.origin, [head, ...answer.similar.map((s) => ideaLine(s.idea))].join("\n"), answer);
      }),
  );

  server.registerTool(
    "post_idea",
    {
      description:
        "Post an idea. If it already exists you get an error with code duplicate_idea (HTTP 409) and the existing " +
        "idea: vote for it with vote_idea instead (force: true posts anyway).",
      inputSchema: createIdeaBody().shape,
      outputSchema: restOutput("postIdea", 201).extend({ links: ideaLinks }),
    },
    (args) =>
      asTool(async () => {
        const answer = await rest.json<{ idea: Idea }>({ method: "POST", path: "/api/ideas", json: args });
        return toolResult(rest.origin, `Posted idea #${answer.idea.id}: ${answer.idea.title}.`, { ...answer, links: linksOf(answer.idea.id) });
      }),
  );

  server.registerTool(
    "vote_idea",
    {
      description: "Toggle your vote on an idea (a second call removes it; with a bot key a vote only adds and never removes your owner's).",
      inputSchema: { id: ideaId },
      outputSchema: restOutput("voteIdea").extend({ links: ideaLinks }),
    },
    ({ id }) =>
      asTool(async () => {
        const answer = await rest.json<{ voted: boolean; votes: number }>({ method: "POST", path: `/api/ideas/${id}/vote` });
        return toolResult(rest.origin, `${answer.voted ? "Voted for" : "Removed your vote from"} idea #${id}: ${answer.votes} votes.`, { ...answer, links: linksOf(id) });
      }),
  );

  server.registerTool(
    "comment_idea",
    { description: "Comment on an idea.", inputSchema: { id: ideaId, ...commentBody().shape }, outputSchema: restOutput("commentIdea", 201).extend({ links: ideaLinks }) },
    ({ id, ...body }) =>
      asTool(async () => {
        const answer = await rest.json<Record<string, unknown>>({ method: "POST", path: `/api/ideas/${id}/comments`, json: body });
        return toolResult(rest.origin, `Commented on idea #${id}.`, { ...answer, links: linksOf(id) });
      }),
  );
}
