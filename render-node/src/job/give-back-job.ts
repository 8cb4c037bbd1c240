// A job the node gives back because it is stopping (SIGTERM: a container stopped, a deploy): the Worker queues it
// again at once for another node (POST /api/node/jobs/:id/release) instead of a lease later. Not the user's failure,
// so it is never completed as failed. Should the call fail, the job's lease lapses and the Worker queues it then.
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";

/** Gives `job` back; whether the Worker put it back (false also when the call failed, said in the log). */
export async function giveBackJob(client: NodeClient, job: Job, log: ((line: string) => void) | undefined): Promise<boolean> {
  try {
    const released = await client.release(job.id, "the render node is stopping");
    log?.(`[${job.id}] given back: ${released ? `the node is stopping; the Worker queued the ${job.kind} again for another node` : "it was no longer this node's (ended, cancelled or taken over)"}`);
    return released;
  } catch (error) {
    log?.(`[${job.id}] could not give the ${job.kind} back (${error instanceof Error ? error.message : String(error)}); the Worker queues it again once its lease lapses`);
    return false;
  }
}
