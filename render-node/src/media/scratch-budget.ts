// How much of the node's disk and decoding one job's <video> frames may take. The frames a composition's clips
// need are bounded by its window (plan-video-extractions.ts), but a long composition at a large size can still ask
// for more than the node's disk holds: the job fails naming this budget, the clip and the figure, before decoding
// when the plan is over the frame budget, and the moment the frames written pass the byte budget (the ffmpeg
// writing them is killed), never after filling the disk. The node sets it from its configuration (config/node-config.ts).

export interface ScratchBudget {
  /** Bytes of extracted video frames one job (a render, a segment) may hold on disk at once. */
  videoFrameBytes: number;
  /** Video frames one job may extract. */
  videoFrames: number;
}

/**
 * 4 GiB: beside the 1.1 GB image, a project at the 5 GiB storage quota, the chunks and the output, it leaves the
 * production instance's 16 GB disk about 4.5 GB for a snapshot or check job beside the render. Measured
 * (bench/measure-video-scratch.ts; README "Sizing"): 0.56 MB a 1080p frame of camera-like video with grain, 1.45 MB
 * of pure noise, 2.16 MB at 4K, so about 7,600, 2,900 and 2,000 frames; far more of small or clean clips.
 */
export const DEFAULT_VIDEO_FRAME_BYTES = 4 * 1024 ** 3;
/** 54,000: 30 minutes of one clip at 30 fps, three clips for ten minutes. */
export const DEFAULT_VIDEO_FRAMES = 54_000;

export const DEFAULT_SCRATCH_BUDGET: ScratchBudget = { videoFrameBytes: DEFAULT_VIDEO_FRAME_BYTES, videoFrames: DEFAULT_VIDEO_FRAMES };

/** The variables that set the budget (config/node-config.ts), named in every refusal. */
export const SCRATCH_BUDGET_VARIABLES = { videoFrameBytes: "VIDEO_FRAMES_MAX_BYTES", videoFrames: "VIDEO_FRAMES_MAX" } as const;

/** Bytes for a message: "3.2 GiB", "812.0 MiB", "640 bytes". */
export function formatBytes(bytes: number): string {
  const units = ["GiB", "MiB", "KiB"] as const;
  for (const [i, unit] of units.entries()) {
    const size = 1024 ** (3 - i);
    if (bytes >= size) return `${(bytes / size).toFixed(1)} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** The refusal before decoding: the plan needs more frames than the budget. */
export function frameBudgetRefusal(input: { planned: number; budget: number; largest: { name: string; frames: number; clips: number } }): string {
  const { largest } = input;
  const shared = largest.clips > 1 ? ` (shown by ${largest.clips} elements)` : "";
  return `the <video> clips need ${input.planned} frames, over this node's budget of ${input.budget} video frames per job ` +
    `(${SCRATCH_BUDGET_VARIABLES.videoFrames}); ${largest.name}${shared} alone needs ${largest.frames}`;
}

/** The failure when a file gives more frames than its probe said and the total passes the frame budget. */
export function frameBudgetExceeded(input: { name: string; written: number; budget: number }): string {
  return `extracting the frames of ${input.name} passed this node's budget of ${input.budget} video frames per job ` +
    `(${SCRATCH_BUDGET_VARIABLES.videoFrames}): ${input.written} frames written; the extraction was stopped`;
}

/** The failure when the frames on disk pass the byte budget while ffmpeg writes them. */
export function byteBudgetExceeded(input: { name: string; bytes: number; frames: number; budget: number }): string {
  return `extracting the frames of ${input.name} passed this node's scratch budget of ${formatBytes(input.budget)} of video frames per job ` +
    `(${SCRATCH_BUDGET_VARIABLES.videoFrameBytes}): ${formatBytes(input.bytes)} written in ${input.frames} frames; the extraction was stopped and its frames removed`;
}
