// What a ProjectRoom offers the modules that carry part of its work (split-render.ts, render-watchdog.ts): its
// render, kept in the object's storage, and the effects of a transition (render-transitions.ts) told through its
// feed. Only the room implements it; a module never keeps a render of its own.
import type { Env } from "../../env.ts";
import type { Progress, RoomRender } from "../state.ts";
import type { Outcome } from "./render-transitions.ts";

export interface RoomCore {
  readonly env: Env;
  /** The render in the room's storage, or null when the project never rendered. */
  current(): Promise<RoomRender | null>;
  /** Stores `render` as the room's render. */
  save(render: RoomRender): Promise<void>;
  /** Stores `render` with `lines` (and progress) applied and tells the render's streams; the stored render. */
  tell(render: RoomRender, lines: string[], progress?: Progress | null): Promise<RoomRender>;
  /** Ends the render (done, failed or cancelled): a decision that is final. */
  finish(renderId: string, outcome: Outcome): Promise<unknown>;
  /** Re-arms the watchdog at `at` (epoch ms). */
  watchAgainAt(at: number): Promise<void>;
  /** Whether the room has already said so (`key`), and remembers that it now has. */
  saidOnce(key: string): Promise<boolean>;
}
