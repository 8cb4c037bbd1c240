// The free nodes' count for the split decision from what the Worker knows (free-nodes.ts gathers it). Pure.
export interface FreeNodes {
  count: number;
  /** How it was counted, for the render's log. */
  said: string;
}

/**
 * The count from what is known. Pure. `idle` nodes wait on the board; `containers`, where render nodes are
 * Containers, is the instance cap and the render work queued or running besides this render's own job.
 */
export function countFreeNodes(idle: number, containers: { max: number; busy: number } | null): FreeNodes {
  const waiting = { count: 1 + idle, said: idle === 0 ? "1 free node (this one; no other waiting for work)" : `${1 + idle} free nodes (this one and ${idle} waiting for work)` };
  if (!containers) return waiting;
  const headroom = containers.max - containers.busy;
  if (headroom <= waiting.count) return waiting;
  return { count: headroom, said: `${headroom} free nodes (container instances: ${containers.max} at most, ${containers.busy} busy with other render work)` };
}

