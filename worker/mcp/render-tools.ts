// The render tools. `render` starts a render through POST .../render (never with the REST `wait`: the tool waits
// itself, so it can report progress) and polls GET .../render for that render's id, sending MCP progress
// notifications when the client gave a progressToken. By default it waits a bounded time (MCP_RENDER_WAIT_MS,
// 25 s: MCP clients give up on a tool call after 30-60 s, and a draft of a short video often ends within it) and
// answers with the finished render and its download link, or else with a handle (id, status, progress and what
// to call next); `wait: true` waits for the end however long it takes, `wait: false` answers at once.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { renderFilename } from "../../core/paths/identifiers.ts";
import { renderOptionsSchema } from "../../core/render/render-options.ts";
import { isInProgress, type RenderOrNone, type RenderState as RenderStateOf } from "../../core/protocol/render-state.ts";
import { apiPath, RestError, type RestClient } from "./rest-client.ts";
import { slugInput } from "./project-tools.ts";
import { restOutput } from "./output-schema.ts";
import type { RenderQuote } from "../../core/protocol/render-quote.ts";
import { describeQuote } from "../../core/render/describe-quote.ts";
import type { BudgetFit } from "../../core/protocol/render-quote.ts";
import { describeFit } from "../../core/render/describe-budget-fit.ts";
import { nextText } from "./result-text.ts";
import { asTool, toolResult } from "./tool-result.ts";
import { getRenderOutput, renderAnswer, renderPath, renderToolOutput } from "./render-answer.ts";
import { pageArgs } from "./page-args.ts";
import { playerToolMeta } from "./player-resource.ts";
import { registerTaskTool } from "./task-tool.ts";
import { renderTask } from "./task-status.ts";

/** How often a waiting render tool reads the render state. */
export const RENDER_POLL_MS = 1000;

const { wait: _restWait, ...renderOptionShape } = renderOptionsSchema().shape;

/** What POST and GET …/render answer (the contract, core/protocol/render-state.ts); its log is not read here. */
type RenderState = RenderOrNone;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Whether the caller's credential still holds (mcp-server.ts); false ends a waiting tool with a 401 error. */
export type CallerLive = () => Promise<boolean>;

/** Throws the tool's 401 once the caller's credential ended: a revoked app hears nothing of the render after it. */
async function requireLive(live: CallerLive): Promise<void> {
  if (!(await live())) throw new RestError(401, { error: "unauthorized: this app's access was revoked", code: "unauthorized" });
}

/**
 * Polls the render until it ends or `deadline` (epoch ms) passes; the last state read. Each state read is checked
 * against the caller's credential before it is reported: a personal token is checked by the REST call itself (the
 * request gate), an OAuth grant, which in-process calls carry without a check, by `live`.
 */
async function waitForEnd(rest: RestClient, slug: string, started: RenderState, extra: Extra, deadline: number, live: CallerLive): Promise<RenderState> {
  const token = extra._meta?.progressToken;
  let reported = -0.001;
  let state = started;
  for (;;) {
    if (state.id !== started.id || !isInProgress(state.status) || Date.now() >= deadline) return state;
    // Progress must grow with every notification. A notification on every poll keeps a client that resets its
    // timeout on progress waiting through a long queue, so an unchanged percent still moves by a hair.
    if (token !== undefined) {
      reported = Math.max(reported + 0.001, state.progress?.percent ?? 0);
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: Math.round(reported * 1000) / 1000, total: 100, message: `${state.status}: ${state.lastLine ?? ""}`.trim() },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(RENDER_POLL_MS, Math.max(0, deadline - Date.now()))));
    if (extra.signal.aborted) return state;
    state = await rest.json<RenderState>({ path: renderPath(slug), signal: extra.signal });
    await requireLive(live);
  }
}

export function registerRenderTools(server: McpServer, rest: RestClient, waitMs: number, live: CallerLive, asTask: (tool: string) => boolean): void {
  registerTaskTool(
      server,
      "render",
      asTask("render"),
      {
        description:
          "Render a project to a video (mp4, webm, mov or gif; png-sequence for a .zip of PNG frames; webm, mov and png-sequence keep a transparent background; quality draft for a quick look). One render per project " +
          `at a time: if one is running you get it back. Waits up to ${Math.round(waitMs / 1000)} s and returns the finished render with ` +
          "its download link, else a handle (id, status, progress): then call get_render. wait: true waits until the end " +
          "(however long), wait: false returns at once. Progress notifications are sent if you asked for them. " +
          "Lint first: errors break frames (strict: true fails on them). A minute of video can take minutes. " +
          "variables: values over the composition's declared data-composition-variables defaults for this render " +
          "(strictVariables: true refuses undeclared keys and wrong types). dryRun: true answers the render's quote " +
          "(frames, size, estimated node and wall seconds, queue place) and starts nothing; a render's state carries its quote too. " +
          "from/to render only a part (seconds, or frames as \"75f\": from 40 to 45 of a 60 s video), its frames and sound the full render's same ones. " +
          "As an MCP task (call it with task: { ttl }), it answers the task at once: tasks/get says \"frame n of N\" and when to ask " +
          "again, tasks/result gives this same answer once it ends, tasks/cancel cancels the render. A done render has video " +
          "(download, duration, size, the render-seconds used, a player link) and the player app (ui://studio/player.html) plays it.",
        inputSchema: {
          slug: slugInput,
          ...renderOptionShape,
          wait: z.boolean().optional().describe(`true: return only when the render has ended (done, failed or cancelled); false: at once; unset: up to ${Math.round(waitMs / 1000)} s`),
        },
        outputSchema: renderToolOutput,
        _meta: playerToolMeta,
      },
      ({ slug, wait, ...options }, extra) =>
        asTool(async (): Promise<CallToolResult> => {
          if (options.dryRun) {
            const answer = await rest.json<{ dryRun: true; quote: RenderQuote; budget: BudgetFit }>({ method: "POST", path: renderPath(slug), json: options });
            return toolResult(rest.origin, `Quote for ${slug} (nothing started): ${describeQuote(answer.quote)}; ${describeFit(answer.budget)}`, answer);
          }
          const started = await rest.json<RenderState>({ method: "POST", path: renderPath(slug), json: options });
          const deadline = wait === true ? Infinity : wait === false ? 0 : Date.now() + waitMs;
          const last = await waitForEnd(rest, slug, started, extra, deadline, live);
          const ended = last.id !== started.id || !isInProgress(last.status);
          const state = ended && last.id === started.id ? await rest.json<RenderState>({ path: renderPath(slug) }) : last;
          if (deadline > 0) await requireLive(live);
          return await renderAnswer(rest, slug, state, !ended);
        }),
      async ({ slug, wait: _wait, ...options }) => {
        // A quote answers at once and starts nothing: there is no render for a task to follow.
        if (options.dryRun) throw new RestError(400, { error: "invalid dryRun: a quote answers at once; call render with dryRun without a task", code: "bad_request" });
        return renderTask(await rest.json<RenderStateOf>({ method: "POST", path: renderPath(slug), json: options }), Date.now());
      },
  );
  server.registerTool(
      "get_render",
      {
        description:
          "A project's current or last render state (status queued, rendering, done, failed or cancelled; progress; " +
          'links.download when done; the log in lines), or { status: "none", recent } when it never rendered.',
        inputSchema: { slug: slugInput },
        outputSchema: getRenderOutput,
        _meta: playerToolMeta,
      },
      ({ slug }) =>
        asTool(async () => {
          const state = await rest.json<RenderState>({ path: renderPath(slug) });
          return await renderAnswer(rest, slug, state, isInProgress(state.status));
        }),
  );
  server.registerTool(
      "cancel_render",
      { description: "Stop a project's render in progress.", inputSchema: { slug: slugInput }, outputSchema: restOutput("cancelRender") },
      ({ slug }) =>
        asTool(async () => {
          const answer = await rest.json<{ stopped: boolean }>({ method: "DELETE", path: renderPath(slug) });
          return toolResult(rest.origin, answer.stopped ? `Stopped the render of ${slug}.` : `No render of ${slug} was running.`, answer);
        }),
  );
  server.registerTool(
      "list_renders",
      {
        description: "Your rendered video files, newest first, with their download URLs (GET them with your token) and ids (GET /api/renders/{id}); with limit, pass the answer's next for the following page.",
        inputSchema: pageArgs,
        outputSchema: restOutput("listRenders"),
      },
      (args) =>
        asTool(async () => {
          const answer = await rest.json<{ renders: Array<{ filename: string; project: string; size: number; url: string }>; next: string | null }>({ path: "/api/renders", query: args });
          const lines = answer.renders.map((r) => `- ${r.filename} (${r.project}, ${r.size} bytes): ${rest.origin}${r.url}`);
          return toolResult(rest.origin, `${answer.renders.length} renders.${nextText(answer.next)}\n${lines.join("\n")}`.trim(), answer);
        }),
  );
  server.registerTool(
      "delete_render",
      {
        description: "Delete one of your rendered video files (by its filename from list_renders) to give its bytes back to your storage quota.",
        inputSchema: { filename: renderFilename.describe('the render\'s file name as list_renders gives it, e.g. "my-video_2026-01-02_03-04-05.mp4"') },
        outputSchema: restOutput("deleteRender"),
      },
      ({ filename }) => asTool(async () => toolResult(rest.origin, `Deleted ${filename}.`, await rest.json({ method: "DELETE", path: apiPath("/renders", filename) }))),
  );
}
