// The render tools. `render` starts a render through POST .../render (never with the REST `wait`: the tool waits
// itself, so it can report progress); with wait it polls GET .../render for that render's id, sends MCP progress
// notifications when the client gave a progressToken, and returns the final state with its log.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { renderFilename } from "../../core/paths/identifiers.ts";
import { renderOptionsSchema } from "../../core/render/render-options.ts";
import { isInProgress } from "../renders/state.ts";
import { apiPath, type RestClient } from "./rest-client.ts";
import { slugInput } from "./project-tools.ts";
import { asTool, jsonResult } from "./tool-result.ts";
import { pageArgs } from "./page-args.ts";

/** How often a waiting render tool reads the render state. */
export const RENDER_POLL_MS = 1000;

const { wait: _restWait, ...renderOptionShape } = renderOptionsSchema.shape;

interface RenderState {
  id?: string;
  status: string;
  progress?: { frame: number; total: number; percent: number } | null;
  lastLine?: string;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const renderPath = (slug: string) => apiPath("/api/projects", slug, "render");

async function waitForEnd(rest: RestClient, slug: string, started: RenderState, extra: Extra): Promise<RenderState> {
  const token = extra._meta?.progressToken;
  let reported = -0.001;
  let state = started;
  for (;;) {
    if (state.id !== started.id || !isInProgress(state.status)) return state;
    // Progress must grow with every notification. A notification on every poll keeps a client that resets its
    // timeout on progress waiting through a long queue, so an unchanged percent still moves by a hair.
    if (token !== undefined) {
      reported = Math.max(reported + 0.001, state.progress?.percent ?? 0);
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: Math.round(reported * 1000) / 1000, total: 100, message: `${state.status}: ${state.lastLine ?? ""}`.trim() },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, RENDER_POLL_MS));
    if (extra.signal.aborted) return state;
    state = await rest.json<RenderState>({ path: renderPath(slug), signal: extra.signal });
  }
}

export function registerRenderTools(server: McpServer, rest: RestClient): void {
  server.registerTool(
      "render",
      {
        description:
          "Render a project to a video (mp4, webm, mov or gif; quality draft for a quick look). One render per project " +
          "at a time: if one is running you get it back. Without wait the tool returns at once (then call get_render); " +
          "with wait it returns the final state with the log, sending progress notifications if you asked for them. " +
          "Lint first: errors break frames (strict: true fails on them). A minute of video can take minutes.",
        inputSchema: {
          slug: slugInput,
          ...renderOptionShape,
          wait: z.boolean().optional().describe("return only when the render has ended (done, failed or cancelled)"),
        },
      },
      ({ slug, wait, ...options }, extra) =>
        asTool(async (): Promise<CallToolResult> => {
          const started = await rest.json<RenderState>({ method: "POST", path: renderPath(slug), json: options });
          if (!wait) return jsonResult(started);
          const ended = await waitForEnd(rest, slug, started, extra);
          return jsonResult(ended.id === started.id ? await rest.json({ path: renderPath(slug) }) : ended);
        }),
  );
  server.registerTool(
      "get_render",
      {
        description:
          "A project's current or last render state (status queued, rendering, done, failed or cancelled; progress; " +
          'downloadUrl when done; the log in lines), or { status: "none", recent } when it never rendered.',
        inputSchema: { slug: slugInput },
      },
      ({ slug }) => asTool(async () => jsonResult(await rest.json({ path: renderPath(slug) }))),
  );
  server.registerTool(
      "cancel_render",
      { description: "Stop a project's render in progress.", inputSchema: { slug: slugInput } },
      ({ slug }) => asTool(async () => jsonResult(await rest.json({ method: "DELETE", path: renderPath(slug) }))),
  );
  server.registerTool(
      "list_renders",
      { description: "Your rendered video files, newest first, with their download URLs (GET them with your token); with limit, pass the answer's next for the following page.", inputSchema: pageArgs },
      (args) => asTool(async () => jsonResult(await rest.json({ path: "/api/renders", query: args }))),
  );
  server.registerTool(
      "delete_render",
      {
        description: "Delete one of your rendered video files (by its filename from list_renders) to give its bytes back to your storage quota.",
        inputSchema: { filename: renderFilename.describe('the render\'s file name as list_renders gives it, e.g. "my-video_2026-01-02_03-04-05.mp4"') },
      },
      ({ filename }) => asTool(async () => jsonResult(await rest.json({ method: "DELETE", path: apiPath("/renders", filename) }))),
  );
}
