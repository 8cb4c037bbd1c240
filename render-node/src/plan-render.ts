// The first step of a render on the farm: load the composition once and say what it is (frames, rate, size, audio),
// so the Worker can split it into segments that any node renders the same way.
import type { CaptureMode } from "./launch-capture-browser.ts";
import type { Binaries } from "./resolve-binaries.ts";
import type { StageBounds } from "./stage-bounds.ts";
import { withCaptureSession } from "./capture-session.ts";
import type { SessionOptions } from "./capture-session.ts";

/** Same shape as core/protocol's render plan schema (the Worker validates it there). */
export interface RenderPlan {
  /** Project-relative entry composition. */
  composition: string;
  frames: number;
  /** The settled rate: the request's fps, else the root's data-fps, else 30. */
  fps: { num: number; den: number };
  /** As ffmpeg reads it: "30" or "30000/1001". */
  fpsText: string;
  /** frames × den / num. */
  durationSeconds: number;
  /** Output size in pixels. */
  width: number;
  height: number;
  /** Audio clips to mix once, at the join; `src` is a project-relative path. */
  audio: Array<{ src: string; start: number; duration: number | null; mediaStart: number; volume: number; kind: "audio" | "video" }>;
  findings: string[];
}

export interface PlanRenderInput {
  projectDir: string;
  options: SessionOptions;
  binaries?: Binaries | undefined;
  bounds?: StageBounds | undefined;
  strict?: boolean | undefined;
  captureMode?: CaptureMode | undefined;
  signal: AbortSignal;
  onLine?: ((line: string) => void) | undefined;
}

/** Loads the composition in one browser and returns its plan; nothing is captured. */
export function planRender(input: PlanRenderInput): Promise<RenderPlan> {
  return withCaptureSession(input, async (session) => {
    const plan = session.plan();
    session.failIfBlocked();
    return plan;
  });
}
