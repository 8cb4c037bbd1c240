// The first step of a render on the farm: load the composition once and say what it is (frames, rate, size, audio),
// so the Worker can split it into segments that any node renders the same way.
import type { RenderPlan } from "../../core/protocol/render-plan.ts";
import type { CaptureMode } from "./browser/launch-capture-browser.ts";
import type { Binaries } from "./system/resolve-binaries.ts";
import type { StageBounds } from "./bounds/stage-bounds.ts";
import { withCaptureSession } from "./capture/capture-session.ts";
import type { SessionOptions } from "./capture/capture-options.ts";

export type { RenderPlan };

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
