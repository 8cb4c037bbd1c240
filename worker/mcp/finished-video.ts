// What a finished render gives an agent beyond its state: the download link, a short-lived link the player (the
// MCP App, player-resource.ts) can load without the caller's token, the video's length, its size and how long the
// render took, and the node seconds it used (what budgets count). Read once, when the render is done and its file
// still exists.
import * as z from "zod";
import type { RenderState } from "../../core/protocol/render-state.ts";
import { renderRate } from "../../core/render/render-rate.ts";
import { apiPath, RestError, type RestClient } from "./rest-client.ts";

/** How long the player's link lives: an hour, as the links GET /api/projects/:slug makes for viewing. */
export const PLAYER_LINK_SECONDS = 60 * 60;

const MAIN_COMPOSITION = "index.html";

export const finishedVideoOutput = z
  .object({
    download: z.string().describe("GET with your token: the file"),
    poster: z.string().nullable().describe("GET with your token: its poster image (image/jpeg, one frame); null when it has none (posterError says why)"),
    duration: z.number().nullable().describe("seconds of video; null when neither the fps asked nor the project says"),
    frames: z.number().int().nullable(),
    size: z.number().int().describe("bytes"),
    elapsedSeconds: z.number().describe("seconds from the render's start to its end, time in the queue included"),
    renderSeconds: z.number().nullable().describe("node seconds the render used (its render, segment and join jobs' running time); null for a render that has no such figure"),
    player: z
      .object({ url: z.string(), expiresAt: z.string() })
      .nullable()
      .describe("a read-only link to the file on the content origin, for players (one hour; null for an OAuth app, which cannot make share links)"),
  })
  .describe("when done and the file exists");
export type FinishedVideo = z.infer<typeof finishedVideoOutput>;

/**
 * Seconds of video: the frames over the fps the render asked for; else (the composition's own rate, which only the
 * node read) the project's declared duration when the render was of its main composition.
 */
export function videoSeconds(state: RenderState, projectDuration: number | null): number | null {
  const frames = state.progress?.total;
  if (frames && state.fps !== null) return Math.round((frames / renderRate({ fps: state.fps, format: state.format }, null).fps) * 1000) / 1000;
  return state.composition === MAIN_COMPOSITION ? projectDuration : null;
}

/** The player's link to the file: a share link of the render (POST …/share), or null where the caller may not make one. */
async function playerLink(rest: RestClient, state: RenderState): Promise<FinishedVideo["player"]> {
  try {
    return await rest.json<{ url: string; expiresAt: string }>({ method: "POST", path: apiPath("/api/projects", state.slug, "share"), json: { render: state.filename, expiresIn: PLAYER_LINK_SECONDS } });
  } catch (err) {
    // Share links are closed to OAuth grants (worker/oauth/route-scopes.ts): such a caller gets no player link.
    if (err instanceof RestError && err.status === 403) return null;
    throw err;
  }
}

/** The finished video of a done render whose file exists, or undefined. */
export async function finishedVideo(rest: RestClient, state: RenderState): Promise<FinishedVideo | undefined> {
  if (state.status !== "done" || !state.downloadUrl || state.doneAt === null) return undefined;
  const [player, project] = await Promise.all([
    playerLink(rest, state),
    // Renders outlive their project: a deleted project leaves the duration to the fps alone.
    rest.json<{ project: { duration: number | null } }>({ path: apiPath("/api/projects", state.slug) }).catch((err: unknown) => {
      if (err instanceof RestError && err.status === 404) return null;
      throw err;
    }),
  ]);
  return {
    download: rest.origin + state.downloadUrl,
    poster: state.posterUrl ? rest.origin + state.posterUrl : null,
    duration: videoSeconds(state, project?.project.duration ?? null),
    frames: state.progress?.total ?? null,
    size: state.size ?? 0,
    elapsedSeconds: Math.round((state.doneAt - state.startedAt) / 100) / 10,
    renderSeconds: state.actual?.renderSeconds ?? null,
    player,
  };
}
