// The per-user storage quota (worker/projects/files/storage-usage.ts), 8 MiB in these tests (MAX_STORAGE_BYTES in
// vitest.config.ts): project files and renders together; a write past it is a 413 storage_quota_exceeded that
// stores nothing, overwriting counts only the difference, deletes make room, writes of unknown length stop at the
// room left, and one user's quota never touches another's. The count is what GET /api/me shows (the user's
// storage ledger); races and reconciliation are in storage-races.test.ts.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createProject, json, putChunked, type Session, signIn } from "./helpers.ts";
import { setEnv } from "./idea-helpers.ts";
import { claim, nodeCall, registerNode } from "./node-helpers.ts";

const MiB = 1024 * 1024;
const QUOTA = 8 * MiB;

const put = (s: Session, slug: string, path: string, bytes: number) => api(s.token, "PUT", `/api/projects/${slug}/files/${path}`, new Uint8Array(bytes));

/** What the user really stores in R2: project files and renders. */
async function storedInR2(s: Session): Promise<number> {
  let sum = 0;
  for (const prefix of [`p/${s.userId}/`, `r/${s.userId}/`]) {
    let cursor: string | undefined;
    do {
      const page = await env.FILES.list({ prefix, cursor });
      sum += page.objects.reduce((n, o) => n + o.size, 0);
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  return sum;
}

/** What the user's count says, as GET /api/me shows it. */
async function countedRow(s: Session): Promise<{ bytes: number; objects: number }> {
  const { storage } = await json<{ storage: { used: number; files: number } }>(await api(s.token, "GET", "/api/me"));
  return { bytes: storage.used, objects: storage.files };
}
const counted = async (s: Session) => (await countedRow(s)).bytes;

async function objectsInR2(s: Session): Promise<number> {
  const [files, renders] = await Promise.all([env.FILES.list({ prefix: `p/${s.userId}/` }), env.FILES.list({ prefix: `r/${s.userId}/` })]);
  return files.objects.length + renders.objects.length;
}

describe("the storage quota", () => {
  it("fills up, refuses the next write with a 413 naming used and limit that stores nothing, counts overwrites by their difference, and a delete makes room", async () => {
    const s = await signIn("Quota Filler");
    await createProject(s.token, "fill");
    for (let i = 1; i <= 7; i++) expect((await put(s, "fill", `media/${i}.bin`, MiB)).status).toBe(200);
    const used = await storedInR2(s);
    expect(await counted(s)).toBe(used);

    const refused = await put(s, "fill", "media/8.bin", MiB);
    expect(refused.status).toBe(413);
    const body = await json<{ error: string; code: string; used: number; limit: number }>(refused);
    expect(body).toMatchObject({ code: "storage_quota_exceeded", used, limit: QUOTA });
    expect(body.error).toMatch(/^storage quota exceeded: you store 7(\.\d)? MiB of your 8 MiB \(project files and renders\); 1 MiB more would not fit/);
    expect(await env.FILES.head(`p/${s.userId}/fill/media/8.bin`)).toBeNull();
    expect(await counted(s)).toBe(used);
    // An agent sees where it stands before it writes.
    const files = (await env.FILES.list({ prefix: `p/${s.userId}/` })).objects.length;
    expect((await json<{ storage: unknown }>(await api(s.token, "GET", "/api/me"))).storage).toEqual({ used, limit: QUOTA, files, fileLimit: 100_000 });

    // Replacing a file with one of the same size needs no room; a smaller one gives the difference back.
    expect((await put(s, "fill", "media/1.bin", MiB)).status).toBe(200);
    expect((await put(s, "fill", "media/1.bin", MiB / 4)).status).toBe(200);
    expect(await counted(s)).toBe(used - (3 * MiB) / 4);
    expect(await counted(s)).toBe(await storedInR2(s));

    // Deleting a directory gives its bytes back; then the refused file fits.
    expect((await api(s.token, "DELETE", "/api/projects/fill/files/media")).status).toBe(200);
    expect((await put(s, "fill", "media/8.bin", MiB)).status).toBe(200);
    expect(await counted(s)).toBe(await storedInR2(s));
  });

  it("holds under concurrent writes: of twelve 1 MiB files sent at once, exactly the seven that fit are stored", async () => {
    const s = await signIn("Quota Racer");
    await createProject(s.token, "race");
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => put(s, "race", `r${i}.bin`, MiB)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(7).fill(200), ...Array(5).fill(413)]);
    expect(await storedInR2(s)).toBeLessThanOrEqual(QUOTA);
    expect(await counted(s)).toBe(await storedInR2(s));
  });

  it("lets a write of unknown length store only the room left: past it chunked and base64 writes are the quota's 413 and store nothing", async () => {
    const s = await signIn("Quota Streamer");
    await createProject(s.token, "stream");
    for (let i = 1; i <= 7; i++) expect((await put(s, "stream", `${i}.bin`, MiB)).status).toBe(200);
    // Under the quota, but a MiB more does not fit (the project's own files take a little): stopped part way.
    const over = await putChunked(s, "stream", "over.bin", MiB);
    expect(over.status).toBe(413);
    expect(await json(over)).toMatchObject({ code: "storage_quota_exceeded", limit: QUOTA });
    expect(await env.FILES.head(`p/${s.userId}/stream/over.bin`)).toBeNull();
    // What fits is stored and counted.
    expect((await putChunked(s, "stream", "half.bin", MiB / 2)).status).toBe(200);
    expect(await counted(s)).toBe(await storedInR2(s));
    expect(await storedInR2(s)).toBeLessThanOrEqual(QUOTA);
    const b64 = await api(s.token, "PUT", "/api/projects/stream/files/tiny.txt?encoding=base64", btoa("x".repeat(MiB / 2)));
    expect(b64.status).toBe(413);
    expect(await env.FILES.head(`p/${s.userId}/stream/tiny.txt`)).toBeNull();
    expect(await counted(s)).toBe(await storedInR2(s));
  });

  it("refuses a new project whose files do not fit, claiming no slug; another user's quota is untouched; deleting the project gives everything back", async () => {
    const s = await signIn("Quota Creator");
    await createProject(s.token, "first", { files: { "assets/big.txt": "x".repeat(MiB / 2) } });
    for (let i = 1; i <= 7; i++) expect((await put(s, "first", `${i}.bin`, MiB)).status).toBe(200);
    // 7.5 MiB stored: three quarters of a MiB more does not fit.
    const refused = await api(s.token, "POST", "/api/projects", { name: "second", files: { "assets/big.txt": "y".repeat((3 * MiB) / 4) } });
    expect(refused.status).toBe(413);
    expect(await json(refused)).toMatchObject({ code: "storage_quota_exceeded" });
    expect((await api(s.token, "GET", "/api/projects/second")).status).toBe(404);
    expect((await env.FILES.list({ prefix: `p/${s.userId}/second/` })).objects).toEqual([]);

    const other = await signIn("Quota Neighbour");
    await createProject(other.token, "roomy");
    expect((await put(other, "roomy", "big.bin", MiB)).status).toBe(200);

    expect((await api(s.token, "DELETE", "/api/projects/first")).status).toBe(200);
    expect(await counted(s)).toBe(0);
    expect(await storedInR2(s)).toBe(0);
    await createProject(s.token, "second", { files: { "assets/big.txt": "y".repeat((3 * MiB) / 4) } });
    expect(await counted(s)).toBe(await storedInR2(s));
  });

  it("counts a render's file: a node's upload past the quota is refused with the quota's message, and deleting a render gives its bytes back", async () => {
    const s = await signIn("Quota Renderer");
    await createProject(s.token, "film");
    const node = await registerNode("quota-node");
    const render = await json<{ id: string }>(await api(s.token, "POST", "/api/projects/film/render", { quality: "draft" }));
    while ((await claim(node))?.id !== render.id); // other files' renders may be queued too
    for (let i = 1; i <= 7; i++) expect((await put(s, "film", `${i}.bin`, MiB)).status).toBe(200);

    const refused = await nodeCall(node, "PUT", `/jobs/${render.id}/output`, new Uint8Array(MiB));
    expect(refused.status).toBe(413);
    expect(await json(refused)).toMatchObject({ code: "storage_quota_exceeded" });

    // Room made, the same upload is stored and counted; deleting the render gives its bytes back.
    expect((await api(s.token, "DELETE", "/api/projects/film/files/1.bin")).status).toBe(200);
    expect((await nodeCall(node, "PUT", `/jobs/${render.id}/output`, new Uint8Array(MiB))).status).toBe(200);
    expect((await nodeCall(node, "POST", `/jobs/${render.id}/complete`, { ok: true })).status).toBe(200);
    expect(await counted(s)).toBe(await storedInR2(s));
    const { renders } = await json<{ renders: { filename: string }[] }>(await api(s.token, "GET", "/api/renders"));
    const before = await counted(s);
    expect((await api(s.token, "DELETE", `/renders/${renders[0]!.filename}`)).status).toBe(200);
    expect(await counted(s)).toBe(before - MiB);
    expect(await counted(s)).toBe(await storedInR2(s));
  });

  it("counts objects too: empty files and directories cost no bytes but fill MAX_STORED_FILES, and deleting them makes room", async () => {
    const restore = setEnv({ MAX_STORED_FILES: "12" });
    try {
      const s = await signIn("Quota Many Files");
      await createProject(s.token, "many"); // index.html, meta.json, hyperframes.json and assets/: 4 objects
      for (let i = 1; i <= 4; i++) expect((await put(s, "many", `empty-${i}.txt`, 0)).status).toBe(200);
      for (let i = 1; i <= 4; i++) expect((await api(s.token, "PUT", `/api/projects/many/files/dir-${i}/`)).status).toBe(200);
      expect(await countedRow(s)).toMatchObject({ objects: 12 });
      expect(await objectsInR2(s)).toBe(12);

      const refused = await api(s.token, "PUT", "/api/projects/many/files/dir-5/");
      expect(refused.status).toBe(413);
      const body = await json<{ error: string; code: string; files: number; fileLimit: number }>(refused);
      expect(body).toMatchObject({ code: "storage_quota_exceeded", files: 12, fileLimit: 12 });
      expect(body.error).toMatch(/^storage quota exceeded: you store 12 files of your 12 \(project files, directories and renders\); another file would not fit/);
      expect((await put(s, "many", "empty-5.txt", 0)).status).toBe(413);
      expect(await objectsInR2(s)).toBe(12);
      // Rewriting an existing file adds no object.
      expect((await put(s, "many", "empty-1.txt", 10)).status).toBe(200);

      expect((await api(s.token, "DELETE", "/api/projects/many/files/dir-1")).status).toBe(200);
      expect((await api(s.token, "PUT", "/api/projects/many/files/dir-5/")).status).toBe(200);
      expect(await countedRow(s)).toEqual({ bytes: await storedInR2(s), objects: await objectsInR2(s) });
    } finally {
      restore();
    }
  });
});
