// Render progress as the node reports it (a structured event, never a log line to parse back) and as the render
// state shows it (the same numbers plus percent, summed over segments for a split render).
import * as z from "zod";

export const PROGRESS_STAGES = ["planning", "downloading", "capturing", "encoding", "joining", "uploading"] as const;
export const ProgressStageSchema = z.enum(PROGRESS_STAGES);
export type ProgressStage = z.infer<typeof ProgressStageSchema>;

/** What a node posts: frames done out of its job's frames, its capture rate, and the seconds it expects to need. */
export const ProgressEventSchema = z.object({
  frame: z.number().int().nonnegative(),
  total: z.number().int().positive(),
  fps: z.number().nonnegative().nullable(),
  stage: ProgressStageSchema,
  etaSeconds: z.number().nonnegative().nullable(),
  /** Of the frames done, how many were the frame before's bytes again (frame reuse: provably identical, not captured). */
  reused: z.number().int().nonnegative().optional(),
}).refine((p) => p.frame <= p.total, { message: "frame must not exceed total" })
  .refine((p) => p.reused === undefined || p.reused <= p.frame, { message: "reused must not exceed frame" });
export type ProgressEvent = z.infer<typeof ProgressEventSchema>;

/** The render state's `progress` (GET .../render, events): the event plus percent. */
export const RenderProgressSchema = z.object({
  frame: z.number().int().nonnegative(),
  total: z.number().int().positive(),
  percent: z.number().min(0).max(100),
  fps: z.number().nonnegative().nullable(),
  stage: ProgressStageSchema,
  etaSeconds: z.number().nonnegative().nullable(),
  reused: z.number().int().nonnegative().optional(),
});
export type RenderProgress = z.infer<typeof RenderProgressSchema>;

export function toRenderProgress(event: ProgressEvent): RenderProgress {
  return { ...event, percent: Math.round((event.frame / event.total) * 1000) / 10 };
}

/** A split render's progress: frames summed over segments; fps summed (the nodes work at once); ETA from both. */
export function sumProgress(parts: readonly ProgressEvent[], totalFrames: number): RenderProgress | null {
  if (parts.length === 0 || totalFrames <= 0) return null;
  const frame = Math.min(totalFrames, parts.reduce((n, p) => n + p.frame, 0));
  const rates = parts.map((p) => p.fps).filter((f): f is number => f !== null);
  const fps = rates.length ? rates.reduce((a, b) => a + b, 0) : null;
  const etaSeconds = fps && fps > 0 ? (totalFrames - frame) / fps : null;
  const stage = parts.at(-1)?.stage ?? "capturing";
  const reports = parts.filter((p) => p.reused !== undefined);
  const reused = reports.length ? Math.min(frame, reports.reduce((n, p) => n + p.reused!, 0)) : undefined;
  return toRenderProgress({ frame, total: totalFrames, fps, stage, etaSeconds, ...(reused === undefined ? {} : { reused }) });
}
