// Progress reporting for one job: log lines and the current stage go to the Worker every second, which renews the
// lease; a `{ cancelled: true }` answer aborts `signal`. Shared by snapshot, check and preview jobs.
import type { NodeClient } from "../protocol/node-protocol-client.ts";

const INTERVAL_MS = 1000;

export interface JobReporter {
  signal: AbortSignal;
  /** Every line so far (a snapshot returns them as its log). */
  lines: string[];
  line(text: string): void;
  /** What the job is doing now; a server-side timeout names it. */
  stage(text: string): void;
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export function createJobReporter(client: NodeClient, jobId: string, log?: (line: string) => void): JobReporter {
  const controller = new AbortController();
  const lines: string[] = [];
  let pending: string[] = [];
  let stage: string | undefined;
  let stageSent: string | undefined;
  let posting: Promise<void> = Promise.resolve();
  const flush = () => {
    posting = posting.then(async () => {
      const batch = pending;
      pending = [];
      const sending = stage;
      try {
        const { cancelled } = await client.postProgress(jobId, batch, sending === stageSent ? undefined : sending);
        stageSent = sending;
        if (cancelled && !controller.signal.aborted) controller.abort(new Error("the job was cancelled"));
      } catch (error) {
        pending = [...batch, ...pending];
        log?.(`[${jobId}] progress post failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return posting;
  };
  const timer = setInterval(() => void flush(), INTERVAL_MS);
  return {
    signal: controller.signal,
    lines,
    line(text) {
      lines.push(text);
      pending.push(text);
      log?.(`[${jobId}] ${text}`);
    },
    stage(text) {
      stage = text;
      this.line(text);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
