// A snapshot job: PNG frames and the contact sheet, uploaded into the project's snapshots/ folder.
import { snapshotBody } from "../../../core/browser/browser-options.ts";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import type { Binaries } from "../system/resolve-binaries.ts";
import type { StageBounds } from "../bounds/stage-bounds.ts";
import { runBrowserJob } from "./run-browser-job.ts";
import { takeSnapshots } from "../browser-jobs/take-snapshots.ts";

export function runSnapshotJob(client: NodeClient, job: Job, settings: { binaries: Binaries; bounds?: StageBounds | undefined; log?: (line: string) => void; shutdown?: AbortSignal | undefined }) {
  return runBrowserJob(
    client,
    job,
    { log: settings.log, shutdown: settings.shutdown },
    async ({ reporter, projectDir, signal }) => {
      const options = snapshotBody().parse(job.options);
      const { images } = await takeSnapshots({
        projectDir,
        chrome: settings.binaries.chrome,
        bounds: settings.bounds,
        options,
        signal,
        onLine: (line) => reporter.line(line),
        onStage: (stage) => reporter.stage(stage),
      });
      for (const [i, image] of images.entries()) {
        signal.throwIfAborted();
        reporter.stage(`uploading ${image.path} (${i + 1}/${images.length})`);
        await client.uploadProjectFile(job.id, image.path, image.png, "image/png");
      }
      reporter.line(`wrote ${images.length} PNG${images.length === 1 ? "" : "s"} to snapshots/`);
      return { snapshots: images.map((image) => ({ path: image.path, time: image.time })), log: reporter.lines };
    },
    (reporter) => ({ snapshots: [], log: reporter.lines }),
  );
}
