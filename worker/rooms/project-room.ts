// One ProjectRoom per (user, project): the render state machine, its log and the live event fan-out.
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";

export class ProjectRoom extends DurableObject<Env> {
  /** Stops whatever runs for this project (render, preview). Called before the project is deleted. */
  async stopAll(): Promise<{ stopped: boolean }> {
    return { stopped: false };
  }
}
