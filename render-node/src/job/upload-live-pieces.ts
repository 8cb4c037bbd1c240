// A render watched while it runs: each finished fixed segment remuxed into a live piece (encode/live-piece.ts) and
// uploaded beside the render (PUT .../live/<n>), numbered from the render's first segment. mp4 and webm only (mov,
// gif and png-sequence are seen at the end). The live view is a courtesy: a piece that cannot be made or uploaded is
// a log line, never a failed render.
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { segmentsOf } from "../../../core/render/segment-plan.ts";
import type { ChunkDone } from "../capture/capture-chunks.ts";
import type { RenderPlan } from "../plan-render.ts";
import { buildLivePieceArgs, pieceParts } from "../encode/live-piece.ts";
import type { NodeClient } from "../protocol/node-protocol-client.ts";
import type { StageTools } from "../system/stage-tools.ts";
import { settled } from "../../../core/settled.ts";

export interface LivePieces {
  /** Called with the plan: from then on the render's segments are known. */
  planned(plan: RenderPlan): void;
  /** The pipeline's onSegment: remuxes the segment now (its file is the session's), uploads in the background. */
  onSegment(segment: ChunkDone): Promise<void>;
  /** Every upload started, finished (each failure already logged). */
  settled(): Promise<void>;
}

export function liveUploader(input: { client: NodeClient; jobId: string; tools: () => Promise<StageTools>; work: string; onLine: (line: string) => void }): LivePieces {
  let first = 0;
  let count = 0;
  let fps = { num: 30, den: 1 };
  const uploads: Promise<void>[] = [];
  let said = false;
  const fail = (n: number, error: unknown) => {
    // Once per render: a studio that refuses one piece refuses them all.
    if (said) return;
    said = true;
    input.onLine(`live view: piece ${n} not uploaded (${error instanceof Error ? error.message : String(error)}); the render goes on`);
  };
  return {
    planned(plan) {
      const start = plan.firstFrame ?? 0;
      const segments = segmentsOf({ start, end: start + plan.frames }, plan.fps);
      first = segments[0]!.index;
      count = segments.length;
      fps = plan.fps;
    },
    async onSegment(segment) {
      const n = segment.index - first;
      const piece = join(input.work, `live-${n}.mp4`);
      try {
        const tools = await input.tools();
        await tools.run(tools.binaries.ffmpeg, buildLivePieceArgs(segment.path, piece), { bound: { ms: tools.bounds.encodeMs, stage: `live view: piece ${n}` } }).done;
      } catch (error) {
        fail(n, error);
        return;
      }
      const seconds = ((segment.range.end - segment.range.start) * fps.den) / fps.num;
      const upload = (async () => {
        const bytes = await readFile(piece);
        const parts = pieceParts(bytes);
        if (!parts) throw new Error("the remuxed piece is not a fragmented MP4");
        await input.client.uploadLivePiece(input.jobId, n, bytes, { seconds, ...parts, count });
        await rm(piece, { force: true });
      })().catch((error: unknown) => fail(n, error));
      uploads.push(upload);
    },
    async settled() {
      await Promise.all(uploads.map(settled));
    },
  };
}
