// Batches at the API, with a render node played through the node protocol: a 400 naming the row for bad input
// (nothing started); rows rendered one after another, each a render with its row's variables and a file named by
// the row; no render slipping in between; a failed row that does not stop the batch but makes it `failed`; cancel
// mid-batch; the `batch` events on the project's stream; the batch's webhook delivery.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { starterComposition } from "../../core/composition/index.ts";
import { BatchStateSchema } from "../../core/protocol/render-state.ts";
import { outboxOf } from "../../worker/webhooks/outbox-of.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, deliveredBodies, nodeCall, registerNode, sseReader } from "./node-helpers.ts";

type Row = { index: number; name: string | null; status: string; renderId: string | null; filename: string | null; downloadUrl: string | null; error: string | null };
type Batch = { id: string; status: string; doneAt: number | null; rows: Row[] };

const DECLARED = `data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"Hello"}]'`;

async function project(name: string) {
  const s = await signIn(name);
  const { slug } = await createProject(s.token, name);
  const html = starterComposition({ compositionId: slug, title: "Batch", duration: 2 }).replace("<html", `<html ${DECLARED}`);
  expect((await api(s.token, "PUT", `/api/projects/${slug}/files/index.html`, html)).status).toBe(200);
  return { s, slug };
}

async function batchState(token: string, slug: string): Promise<Batch> {
  return BatchStateSchema.parse(await json(await api(token, "GET", `/api/projects/${slug}/batch`))) as Batch;
}

async function jobCount(userId: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?").bind(userId).first<{ n: number }>())?.n ?? 0;
}

/** Ends a claimed job as a node does: a file and success, or a failure with `error`. */
async function endJob(key: string, jobId: string, error?: string) {
  if (error) return nodeCall(key, "POST", `/jobs/${jobId}/complete`, { ok: false, error });
  await nodeCall(key, "PUT", `/jobs/${jobId}/output`, new Uint8Array(100).fill(7), { "Content-Type": "video/mp4" });
  return nodeCall(key, "POST", `/jobs/${jobId}/complete`, { ok: true });
}

describe("batches", () => {
  it("refuses bad rows with 400 naming the row, and starts nothing", async () => {
    const { s, slug } = await project("batch-bad");
    const many = Array.from({ length: 101 }, () => ({ variables: {} }));
    const cases: [unknown, string][] = [
      [{}, 'invalid rows: give an array of 1 to 100 rows, each { "variables": {...}, "name"?: "..." }'],
      [{ rows: [] }, "invalid rows: 0 rows; give 1 to 100"],
      [{ rows: many }, "invalid rows: 101 rows; give 1 to 100"],
      [{ rows: [{ variables: {} }, { variables: ["x"] }] }, 'invalid rows[1].variables: give a JSON object keyed by variable id, such as {"title":"Q4 Report"}'],
      [{ rows: [{ variables: {}, colour: "red" }] }, "invalid rows[0]: unknown key colour; a row has variables and name"],
      [{ rows: [{ name: "Big Name" }] }, 'invalid rows[0].name: "Big Name"; lowercase letters, digits and "-", 1 to 40 characters, starting with a letter or digit'],
      [{ rows: [{ name: "a" }, { name: "b" }, { name: "a" }] }, 'invalid rows[2].name: "a" is also the name of rows[0]; names are unique in a batch'],
      [{ rows: [{}], wait: true }, "invalid wait: a batch never holds the request; follow it with GET .../batch or the project's event stream"],
      [{ rows: [{}], variables: {} }, "invalid variables: a batch takes its variables per row, as rows[i].variables"],
      [{ rows: [{}], format: "avi" }, 'invalid format: "avi"; allowed values: mp4, webm, mov, gif, png-sequence'],
      [{ rows: [{}], colour: 1 }, "unknown batch option colour; allowed options: rows, quality, fps, format, composition, resolution, strict, dryRun, webhookUrl, strictVariables, crf, videoBitrate, gifLoop, from, to, metadata"],
    ];
    for (const [body, error] of cases) {
      const res = await api(s.token, "POST", `/api/projects/${slug}/batch`, body);
      expect(await json(res)).toEqual({ error, code: "bad_request" });
      expect(res.status).toBe(400);
    }
    const strict = await api(s.token, "POST", `/api/projects/${slug}/batch`, { strictVariables: true, rows: [{ variables: { title: "ok" } }, { variables: { title: 3 } }] });
    expect(strict.status).toBe(400);
    expect((await json<{ error: string }>(strict)).error).toMatch(/^invalid rows\[1\]\.variables: strictVariables: variable "title" expects string/);
    expect(await jobCount(s.userId)).toBe(0);
    expect(await json(await api(s.token, "GET", `/api/projects/${slug}/batch`))).toEqual({ status: "none" });
  });

  it("renders rows one after another with their variables; nothing slips in; a failed row makes the batch failed; events and webhook tell it", async () => {
    const key = await registerNode();
    const { s, slug } = await project("batch-run");
    const events = sseReader(await api(s.token, "GET", `/api/projects/${slug}/events`));
    expect((await events.next()).event).toBe("render");
    const rows = [{ name: "alpha", variables: { title: "Alpha" } }, { variables: { title: "Second" } }, { name: "gamma", variables: { title: "Gamma" } }];
    const metadata = { campaign: "q4", owner: { team: "growth" } };
    const res = await api(s.token, "POST", `/api/projects/${slug}/batch`, { format: "webm", quality: "draft", webhookUrl: "https://hooks.example.com/batch", metadata, rows });
    expect(res.status).toBe(202);
    const started = BatchStateSchema.parse(await json(res));
    expect(started.metadata).toEqual(metadata);
    expect(started).toMatchObject({ slug, status: "queued", doneAt: null });
    expect(started.rows.map((r) => r.status)).toEqual(["queued", "pending", "pending"]);
    expect(started.rows[0]!.filename).toMatch(new RegExp(`^${slug}-alpha_\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{2}\\.webm$`));

    // A second POST returns the batch unchanged; a render POST is refused while the batch runs.
    const again = await api(s.token, "POST", `/api/projects/${slug}/batch`, { rows: [{}] });
    expect(again.status).toBe(200);
    expect((await json<Batch>(again)).id).toBe(started.id);
    const render = await api(s.token, "POST", `/api/projects/${slug}/render`, {});
    expect(render.status).toBe(409);
    expect((await json(render)).code).toBe("batch_in_progress");

    const seen: string[][] = [];
    const done: string[] = [];
    for (const [index, row] of rows.entries()) {
      const job = await claim(key);
      expect(job).toMatchObject({ kind: "render", slug, options: { format: "webm", quality: "draft", variables: row.variables } });
      expect(Object.keys(job!.options)).not.toContain("metadata");
      // One row at a time: nothing else to claim while this one runs.
      expect(await claim(key)).toBeNull();
      const running = await batchState(s.token, slug);
      expect(running.status).toBe("rendering");
      expect(running.rows[index]).toMatchObject({ status: "rendering", renderId: job!.id });
      seen.push(running.rows.map((r) => r.status));
      // Between two rows (this row ended, the next not yet started) a render POST must still not get in.
      const ended = await endJob(key, job!.id, index === 1 ? "ffmpeg exploded" : undefined);
      expect(ended.status).toBe(200);
      if (index < rows.length - 1) expect((await api(s.token, "POST", `/api/projects/${slug}/render`, {})).status).toBe(409);
      done.push(job!.id);
    }
    expect(seen).toEqual([
      ["rendering", "pending", "pending"],
      ["done", "rendering", "pending"],
      ["done", "failed", "rendering"],
    ]);
    const final = await batchState(s.token, slug);
    expect(final.status).toBe("failed");
    expect(typeof final.doneAt).toBe("number");
    expect(final.rows.map((r) => [r.status, r.renderId, r.error])).toEqual([
      ["done", done[0], null],
      ["failed", done[1], "ffmpeg exploded"],
      ["done", done[2], null],
    ]);
    expect(final.rows[1]!.filename).toMatch(new RegExp(`^${slug}-1_.*\\.webm$`));
    expect(final.rows[2]!.filename).toMatch(new RegExp(`^${slug}-gamma_.*\\.webm$`));
    expect(final.rows[1]!.downloadUrl).toBeNull();
    for (const row of [final.rows[0]!, final.rows[2]!]) {
      expect(row.downloadUrl).toBe(`/renders/${row.filename}`);
      const file = await api(s.token, "GET", row.downloadUrl!);
      expect(file.status).toBe(200);
      expect((await file.arrayBuffer()).byteLength).toBe(100);
    }

    // The project's stream told each step; the last batch event is the final state.
    let last: Record<string, unknown> = {};
    const statuses: string[] = [];
    while (last.status !== "failed") {
      const e = await events.next();
      if (e.event !== "batch") continue;
      last = BatchStateSchema.parse(e.data);
      statuses.push(String(last.status));
    }
    await events.cancel();
    expect(statuses[0]).toBe("queued");
    expect(statuses).toContain("rendering");
    expect(last).toEqual(final);

    // One delivery for the batch, to its webhookUrl, as batch.failed (each row's render has its own).
    const deliveries = await outboxOf(env, s.userId).deliveriesOf(final.id);
    expect(deliveries.map((d) => [d.event, d.url])).toEqual([["batch.failed", "https://hooks.example.com/batch"]]);
    expect((await outboxOf(env, s.userId).deliveriesOf(done[0]!)).map((d) => d.event)).toEqual(["render.done"]);
    // The batch's metadata is in its own delivery and in each row's render (state and delivery), as given.
    expect((await deliveredBodies(s.userId, final.id)).map((b) => b.data.metadata)).toEqual([metadata]);
    expect((await deliveredBodies(s.userId, done[0]!)).map((b) => b.data.metadata)).toEqual([metadata]);
    expect((await json<{ metadata?: unknown }>(await api(s.token, "GET", `/api/renders/${done[2]}`))).metadata).toEqual(metadata);
    const listed = await json<{ batchId: string; deliveries: { event: string; url: string }[] }>(await api(s.token, "GET", `/api/projects/${slug}/batch/deliveries`));
    expect(listed.batchId).toBe(final.id);
    expect(listed.deliveries.map((d) => d.event)).toEqual(["batch.failed"]);

    // Once the batch ended, renders start again.
    expect((await api(s.token, "POST", `/api/projects/${slug}/render`, {})).status).toBe(202);
    await api(s.token, "DELETE", `/api/projects/${slug}/render`);
  }, 60_000);

  it("strict with lint errors: every row fails at once without a node, and the batch ends failed", async () => {
    const { s, slug } = await project("batch-strict");
    const html = starterComposition({ compositionId: slug, title: "Broken", duration: 2 }).replace("gsap.timeline({ paused: true })", "gsap.timeline()");
    expect((await api(s.token, "PUT", `/api/projects/${slug}/files/index.html`, html)).status).toBe(200);
    const res = await api(s.token, "POST", `/api/projects/${slug}/batch`, { strict: true, rows: [{}, {}, {}] });
    expect(res.status).toBe(202);
    const state = BatchStateSchema.parse(await json(res));
    expect(state.status).toBe("failed");
    expect(state.rows.map((r) => [r.status, r.error])).toEqual(Array.from({ length: 3 }, () => ["failed", "lint errors (strict): fix them or render without strict"]));
    expect(new Set(state.rows.map((r) => r.renderId)).size).toBe(3);
    expect(await jobCount(s.userId)).toBe(0);
  }, 30_000);

  it("cancel mid-batch stops the running row's render and cancels the rest; a batch waits for a running render", async () => {
    const key = await registerNode();
    const { s, slug } = await project("batch-cancel");
    const plain = await json<{ id: string }>(await api(s.token, "POST", `/api/projects/${slug}/render`, {}));
    const busy = await api(s.token, "POST", `/api/projects/${slug}/batch`, { rows: [{}] });
    expect(busy.status).toBe(409);
    expect((await json(busy)).code).toBe("render_in_progress");
    await api(s.token, "DELETE", `/api/projects/${slug}/render`);
    expect(await claim(key)).toBeNull();
    expect((await json<{ status: string }>(await api(s.token, "GET", `/api/projects/${slug}/render`))).status).toBe("cancelled");
    void plain;

    const started = await json<Batch>(await api(s.token, "POST", `/api/projects/${slug}/batch`, { rows: [{ variables: { title: "A" } }, { variables: { title: "B" } }, {}] }));
    const job = await claim(key);
    expect(job!.id).toBe(started.rows[0]!.renderId);
    const cancel = await json<{ stopped: boolean; batch: Batch }>(await api(s.token, "DELETE", `/api/projects/${slug}/batch`));
    expect(cancel.stopped).toBe(true);
    expect(cancel.batch.status).toBe("cancelled");
    expect(cancel.batch.rows.map((r) => [r.status, r.error])).toEqual([
      ["cancelled", "render cancelled: the batch was cancelled by the user"],
      ["cancelled", "cancelled by the user"],
      ["cancelled", "cancelled by the user"],
    ]);
    // The node is told at its next post; no further row is queued.
    expect(await (await nodeCall(key, "POST", `/jobs/${job!.id}/progress`, { lines: ["frame 2/10"] })).json()).toEqual({ cancelled: true });
    expect(await claim(key)).toBeNull();
    expect((await batchState(s.token, slug)).status).toBe("cancelled");
    expect(await json(await api(s.token, "DELETE", `/api/projects/${slug}/batch`))).toMatchObject({ stopped: false, batch: { status: "cancelled" } });
    // Another user sees no batch here.
    const other = await signIn("batch-other");
    expect((await api(other.token, "GET", `/api/projects/${slug}/batch`)).status).toBe(404);
    expect((await api(other.token, "GET", `/api/projects/${slug}/batch/deliveries`)).status).toBe(404);
    expect((await api(other.token, "DELETE", `/api/projects/${slug}/batch`)).status).toBe(404);
  }, 30_000);
});
