// Benchmark (not a test): how soon a running render can be watched. Against local `wrangler dev` with one render
// node (NODE_CONCURRENCY as the machine gives it), renders the 1080p starter (a new project, 8 s) as a draft mp4 and
// times, per run: the POST; the first log line that says capture began ("capturing with …"), both when the node
// wrote it (its own log, timestamped) and as the render's state shows it (the node's progress post brings it up to a
// second late); the first piece listed in the live playlist (GET /api/renders/:id/live.m3u8). The figure is from the
// node's line (the earlier, so the longer). Each run is cancelled once its first piece is listed.
//   node bench/live-first-segment.ts [--runs 3]
import { mkdtemp } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startStudio } from "../scripts/lib/local-studio.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "3" } } });
const runs = Number(values.runs);
// The node's own lines, each with the time it wrote it (its log starts with an ISO time).
const nodeLines: { at: number; line: string }[] = [];
const log = (text: string) => {
  for (const line of text.split("\n")) {
    const stamp = /^(?:\[node\] )?(\d{4}-\d\d-\d\dT[\d:.]+Z) (.*)$/.exec(line);
    if (stamp) nodeLines.push({ at: Date.parse(stamp[1]!), line: stamp[2]! });
  }
};
const studio = await startStudio({ port: 18_900 + Math.floor(Math.random() * 90), dataDir: await mkdtemp(join(tmpdir(), "studio-live-bench-")), log });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "live-bench" }) });
  const { token } = (await login.json()) as { token: string };
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${studio.url}${path}`, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  await call("POST", "/api/projects", { name: "Live", duration: 8 });
  const rows: { captureS: number; listedS: number; fromCaptureS: number; seenLateS: number }[] = [];
  for (let run = 1; run <= runs; run++) {
    const posted = performance.now();
    const postedAt = Date.now();
    const render = (await (await call("POST", "/api/projects/live/render", { format: "mp4", quality: "draft" })).json()) as { id: string; liveUrl: string };
    let captureAt: number | null = null;
    let listedAt: number | null = null;
    while (listedAt === null && performance.now() - posted < 180_000) {
      if (captureAt === null) {
        const state = (await (await call("GET", "/api/projects/live/render")).json()) as { lines: string[] };
        if (state.lines.some((line) => line.startsWith("capturing with"))) captureAt = performance.now();
      }
      const playlist = await call("GET", render.liveUrl);
      if (playlist.ok && (await playlist.text()).includes("live/0.mp4")) listedAt = performance.now();
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (listedAt === null || captureAt === null) throw new Error(`run ${run}: no first piece listed within 180 s`);
    const listedAtClock = postedAt + (listedAt - posted);
    await call("DELETE", "/api/projects/live/render");
    const began = nodeLines.find((l) => l.at >= postedAt && l.line.includes("] capturing with"));
    if (!began) throw new Error(`run ${run}: the node's log has no "capturing with" line`);
    const seenAtClock = postedAt + (captureAt - posted);
    const row = {
      captureS: (began.at - postedAt) / 1000, listedS: (listedAt - posted) / 1000, fromCaptureS: (listedAtClock - began.at) / 1000,
      seenLateS: (seenAtClock - began.at) / 1000,
    };
    rows.push(row);
    console.log(`run ${run}: capture began ${row.captureS.toFixed(2)} s after the POST (the state showed it ${row.seenLateS.toFixed(2)} s later), first piece listed ${row.listedS.toFixed(2)} s after the POST: ${row.fromCaptureS.toFixed(2)} s from capture (load ${loadavg()[0]!.toFixed(1)})`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  console.log(`median: first piece listed ${median(rows.map((r) => r.fromCaptureS)).toFixed(2)} s after capture began (${median(rows.map((r) => r.fromCaptureS - r.seenLateS)).toFixed(2)} s after the state showed it), ${median(rows.map((r) => r.listedS)).toFixed(2)} s after the POST`);
} finally {
  await studio.stop();
}
