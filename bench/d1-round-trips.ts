// Benchmark (not a test): D1 round trips per endpoint, and what they cost an agent far from D1's primary.
//   node bench/d1-round-trips.ts [--primary-ms 150] [--replica-ms 10] [--runs 3]
// The studio runs under `wrangler dev` behind a traced D1 binding (bench/d1-trace/): every round trip the Worker
// makes is counted, as a round trip to the primary or (a read in a Sessions API session) to a replica, and delayed by
// the modelled distance, so each request's wall time shows how its trips line up. Printed per endpoint: sequential
// trips to the primary and to replicas, the modelled D1 time (primary × trips + replica × trips) and the measured time.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDashboard } from "../scripts/lib/dashboard.ts";
import { startStudio } from "../scripts/lib/local-studio.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const PRIMARY_MS = arg("primary-ms", 150);
const REPLICA_MS = arg("replica-ms", 10);
const RUNS = arg("runs", 3);

await buildDashboard();
const studio = await startStudio({
  port: 18_750,
  dataDir: await mkdtemp(join(tmpdir(), "studio-d1-bench-")),
  renderNode: false,
  entry: "bench/d1-trace/worker.ts",
  // The bench writes more than a person may in a minute.
  vars: { TRACE_PRIMARY_MS: String(PRIMARY_MS), TRACE_REPLICA_MS: String(REPLICA_MS), IDEA_WRITE_LIMIT: "1000" },
});

interface Row {
  name: string;
  primary: number;
  replica: number;
  wallMs: number;
}

try {
  const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"far-agent"}' });
  const { token } = (await login.json()) as { token: string };
  const cookie = (login.headers.get("Set-Cookie") ?? "").split(";")[0]!;
  const auth = { Authorization: `Bearer ${token}` };
  const send = (path: string, init: RequestInit = {}) => fetch(`${studio.url}${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } });
  const must = async (res: Promise<Response>) => {
    const r = await res;
    if (!r.ok) throw new Error(`setup failed: ${r.status} ${await r.text()}`);
    return r;
  };
  await must(send("/api/projects", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Far Away" }) }));
  await must(send("/api/projects/far-away/files/assets/notes.txt", { method: "PUT", body: "hello" }));
  const posted = await must(send("/api/ideas", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ title: "Traced idea about round trips", body: "Counting D1 round trips per endpoint." }) }));
  const ideaId = ((await posted.json()) as { idea: { id: number } }).idea.id;
  const home = await fetch(`${studio.url}/`, { headers: { Accept: "text/html" } });
  const html = await home.text();
  // The signed visitor cookie a browser returns from its second page on (page views are counted from then).
  const visitor = home.headers.getSetCookie().find((c) => c.startsWith("studio_visitor="))?.split(";")[0];
  if (!visitor) throw new Error("no visitor cookie from /");
  const asset = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
  if (!asset) throw new Error("no dashboard script found on /");

  const jsonPost = (path: string, value: unknown, method = "POST") => send(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(value) });
  const enriched = await must(jsonPost(`/api/ideas/${ideaId}/enrich`, { kind: "note", body: "A note to vote for." }));
  const enrichmentId = ((await enriched.json()) as { enrichment: { id: number } }).enrichment.id;
  let ideaCount = 0;
  let commentToEdit = 0;
  const dashboard = { Cookie: cookie, Accept: "text/html" };
  const startBatch = () => jsonPost("/api/projects/far-away/batch", { rows: [{ name: "one", variables: {} }, { name: "two", variables: {} }] });
  // A render node's call: the live piece of a render job the bench claims with the studio's node key, once, just
  // before it is timed (its lease then outlasts the runs). The route reads the job once and asks the room, not D1
  // again, whether the render still wants the piece.
  const nodeAuth = { Authorization: `Bearer ${studio.nodeKey}` };
  let liveJob: Promise<{ id: string; attempt: number }> | null = null;
  const claimLiveJob = async () => {
    await must(send("/api/projects", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Live Piece" }) }));
    const render = (await (await must(jsonPost("/api/projects/live-piece/render", { format: "mp4", quality: "draft" }))).json()) as { id: string };
    for (;;) {
      const claimed = await fetch(`${studio.url}/api/node/jobs/claim?wait=0`, { method: "POST", headers: { ...nodeAuth, "Content-Type": "application/json" }, body: '{"kinds":["render"]}' });
      if (claimed.status !== 200) throw new Error(`setup failed: claim ${claimed.status} ${await claimed.text()}`);
      const { job } = (await claimed.json()) as { job: { id: string; attempt: number } | null };
      if (job?.id === render.id) return job;
    }
  };
  const putLivePiece = async () => {
    const job = await (liveJob ??= claimLiveJob());
    const piece = new Uint8Array(100);
    return fetch(`${studio.url}/api/node/jobs/${job.id}/live/0?seconds=2&initBytes=20&mediaEnd=100&count=3`, {
      method: "PUT",
      headers: { ...nodeAuth, "Content-Type": "video/mp4", "x-job-attempt": String(job.attempt) },
      body: piece,
    });
  };
  const cancelBatch = () => send("/api/projects/far-away/batch", { method: "DELETE" });
  /** Untimed calls around a timed one: what it needs first, what undoes it. */
  type Around = { before?: () => Promise<Response>; after?: () => Promise<Response> };
  const endpoints: [string, () => Promise<Response>, Around?][] = [
    ["GET /api/me", () => send("/api/me")],
    ["GET /api/projects", () => send("/api/projects")],
    ["GET /api/projects/:slug", () => send("/api/projects/far-away")],
    ["GET file", () => send("/api/projects/far-away/files/assets/notes.txt")],
    ["PUT file", () => send("/api/projects/far-away/files/assets/draft.txt", { method: "PUT", body: "draft" })],
    ["POST lint", () => send("/api/projects/far-away/lint", { method: "POST" })],
    ["GET /api/renders", () => send("/api/renders")],
    // A batch started and cancelled on each run (the other untimed), and read: the room's D1 work on the request's
    // path is counted too.
    ["POST batch", startBatch, { after: cancelBatch }],
    ["GET batch", () => send("/api/projects/far-away/batch")],
    ["GET batch/deliveries", () => send("/api/projects/far-away/batch/deliveries")],
    ["DELETE batch", cancelBatch, { before: startBatch }],
    ["GET /api/ideas", () => send("/api/ideas")],
    ["GET /api/stats", () => send("/api/stats")],
    ["GET /api/ideas/:id", () => send(`/api/ideas/${ideaId}`)],
    ["POST /api/ideas/:id/vote", () => send(`/api/ideas/${ideaId}/vote`, { method: "POST" })],
    // A new idea each time (titles no duplicate check joins), read against the replica first.
    ["POST /api/ideas", () => jsonPost("/api/ideas", { title: `${["Waveform", "Keyframe", "Storyboard", "Palette"][ideaCount++ % 4]} editor number ${ideaCount}`, body: "Traced." })],
    ["POST /api/ideas/:id/comments", async () => {
      const res = await jsonPost(`/api/ideas/${ideaId}/comments`, { body: "Traced comment." });
      commentToEdit = ((await res.clone().json()) as { comment: { id: number } }).comment.id;
      return res;
    }],
    ["PATCH /api/comments/:id", () => jsonPost(`/api/comments/${commentToEdit}`, { body: "Edited." }, "PATCH")],
    ["POST /api/ideas/:id/enrich", () => jsonPost(`/api/ideas/${ideaId}/enrich`, { kind: "angle", body: "Another angle." })],
    ["POST /api/enrichments/:id/vote", () => send(`/api/enrichments/${enrichmentId}/vote`, { method: "POST" })],
    ["PATCH /api/ideas/:id", () => jsonPost(`/api/ideas/${ideaId}`, { body: "Counting D1 round trips per endpoint, again." }, "PATCH")],
    ["GET /api/research", () => send("/api/research")],
    ["GET /api/metrics", () => send("/api/metrics")],
    ["dashboard page (signed in)", () => fetch(`${studio.url}/project?slug=far-away`, { headers: dashboard })],
    ["dashboard page (signed in, returning visitor)", () => fetch(`${studio.url}/project?slug=far-away`, { headers: { ...dashboard, Cookie: `${cookie}; ${visitor}` } })],
    ["dashboard script (signed in)", () => fetch(`${studio.url}${asset}`, { headers: { Cookie: cookie } })],
    // Last: the render it starts stays in progress (counted in the user's cap on renders in progress).
    ["PUT node live piece", putLivePiece],
  ];
  const rows: Row[] = [];
  for (const [name, call, around] of endpoints) {
    const runs: Row[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      if (around?.before) await (await must(around.before())).arrayBuffer();
      const started = performance.now();
      const res = await call();
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${name}: ${res.status}`);
      const row = { name, primary: Number(res.headers.get("X-D1-Primary-Trips")), replica: Number(res.headers.get("X-D1-Replica-Trips")), wallMs: performance.now() - started };
      if (i > 0) runs.push(row); // the first call warms the route
      if (around?.after) await (await must(around.after())).arrayBuffer();
    }
    runs.sort((a, b) => a.wallMs - b.wallMs);
    rows.push(runs[Math.floor(runs.length / 2)]!);
  }
  console.log(`\nD1 round trips per request, modelled ${PRIMARY_MS} ms to the primary and ${REPLICA_MS} ms to a replica (median of ${RUNS})\n`);
  console.log("| endpoint | primary trips | replica trips | modelled D1 time | measured |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.primary} | ${r.replica} | ${r.primary * PRIMARY_MS + r.replica * REPLICA_MS} ms | ${r.wallMs.toFixed(0)} ms |`);
  }
} finally {
  await studio.stop();
}
