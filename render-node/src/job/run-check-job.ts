// A check job: the browser half of POST .../check (the Worker lints and merges the sections).
import { checkBody } from "../../../core/browser/browser-options.ts";
import { checkComposition } from "../browser-jobs/check-composition.ts";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import type { Binaries } from "../system/resolve-binaries.ts";
import type { StageBounds } from "../bounds/stage-bounds.ts";
import { runBrowserJob } from "./run-browser-job.ts";

export function runCheckJob(client: NodeClient, job: Job, settings: { binaries: Binaries; bounds?: StageBounds | undefined; log?: (line: string) => void; shutdown?: AbortSignal | undefined }) {
  return runBrowserJob(client, job, { log: settings.log, shutdown: settings.shutdown }, async ({ reporter, projectDir, signal }) => {
    const options = checkBody().parse(job.options);
    return checkComposition({
      projectDir,
      chrome: settings.binaries.chrome,
      bounds: settings.bounds,
      options,
      signal,
      onLine: (line) => reporter.line(line),
      onStage: (stage) => reporter.stage(stage),
    });
  });
}
