// Incremental re-render through the studio's API (issue 35 point 2): a real Worker (wrangler dev) and one render node,
// driven as an agent drives them. After a first render, each pair edits the end title and renders again (the Worker
// hands the node the previous render: carried), then renders the same edited page under a composition file no render
// has used (nothing to carry from: a full render). Wall time from the POST (?wait=1) to its answer: queue, claim,
// downloads (the previous render's too), upload and poster included. Prints each pair, the medians and the ratio.
//
//   node bench/incremental-api.ts [--runs 2] [--case 720p-20s|1080p-30s]
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startStudio } from "../scripts/lib/local-studio.ts";
import { CASES, composition } from "./lib/incremental-composition.ts";
import { percentile } from "./lib/measure.ts";

const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const { values } = parseArgs({ options: { runs: { type: "string", default: "2" }, case: { type: "string", default: "720p-20s" } } });
const chosen = CASES.find((c) => c.name === values.case);
if (!chosen) throw new Error(`no case ${values.case}: ${CASES.map((c) => c.name).join(", ")}`);
const work = await mkdtemp(join(tmpdir(), "studio-incremental-api-"));
const studio = await startStudio({ port: 19_000 + Math.floor(Math.random() * 900), dataDir: join(work, "data") });
try {
  const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "bench" }) });
  const { token } = (await login.json()) as { token: string };
  const call = async (method: string, path: string, body?: unknown) => {
    const json = typeof body !== "string";
    const res = await fetch(`${studio.url}${path}`, {
      method, headers: { Authorization: `Bearer ${token}`, ...(json ? { "Content-Type": "application/json" } : {}) },
      body: body === undefined ? null : json ? JSON.stringify(body) : body,
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const render = async (file: string) => {
    const began = performance.now();
    const state = await call("POST", `/api/projects/bench/render?wait=1`, { quality: "draft", composition: file });
    if (state.status !== "done") throw new Error(`render ${String(state.id)} ${String(state.status)}: ${String(state.error)}`);
    return { seconds: (performance.now() - began) / 1000, carried: `${String(state.carriedSegments ?? "-")} segments` };
  };
  await call("POST", "/api/projects", { name: "Bench", html: composition(chosen, "Version 0") });
  const first = await render("index.html");
  console.log(`${chosen.name}: first render ${first.seconds.toFixed(1)} s`);
  const carried: number[] = [];
  const full: number[] = [];
  for (let run = 1; run <= Number(values.runs); run++) {
    const edited = composition(chosen, `Version ${run}`);
    await call("PUT", "/api/projects/bench/files/index.html", edited);
    const a = await render("index.html");
    await call("PUT", `/api/projects/bench/files/full-${run}.html`, edited);
    const b = await render(`full-${run}.html`);
    carried.push(a.seconds);
    full.push(b.seconds);
    console.log(`pair ${run}: carried ${a.seconds.toFixed(1)} s (${a.carried}), full ${b.seconds.toFixed(1)} s (${b.carried})`);
  }
  console.log(`medians: carried ${median(carried).toFixed(1)} s, full ${median(full).toFixed(1)} s, ratio ${(median(carried) / median(full)).toFixed(3)} (goal ${chosen.goal})`);
} finally {
  await studio.stop();
}
