// The storage quota under attack (worker/storage/storage-ledger.ts): many concurrent writers of every kind against
// a small quota. Whatever order they finish in, nothing past the quota is stored and, once all settle, the user's
// count (GET /api/me) is exactly what R2 holds. Then reconciliation: a ledger corrupted behind its back is rebuilt
// from R2 and reports the drift; a ledger's first use counts what is already there; a reservation nobody settles
// lapses and the alarm settles it from R2.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createProject, json, putChunked, type Session, signIn } from "./helpers.ts";
import { setEnv } from "./idea-helpers.ts";

const MiB = 1024 * 1024;
const QUOTA = 8 * MiB;

const ledgerOf = (userId: string) => env.STORAGE_LEDGER.get(env.STORAGE_LEDGER.idFromName(userId));

/** Every object the user has in R2 (project files and renders): bytes and count. */
async function inR2(userId: string): Promise<{ bytes: number; objects: number }> {
  let bytes = 0;
  let objects = 0;
  for (const prefix of [`p/${userId}/`, `r/${userId}/`]) {
    let cursor: string | undefined;
    do {
      const page = await env.FILES.list({ prefix, cursor });
      bytes += page.objects.reduce((n, o) => n + o.size, 0);
      objects += page.objects.length;
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  return { bytes, objects };
}

/** The user's count as GET /api/me shows it. */
async function counted(s: Session): Promise<{ bytes: number; objects: number }> {
  const { storage } = await json<{ storage: { used: number; files: number } }>(await api(s.token, "GET", "/api/me"));
  return { bytes: storage.used, objects: storage.files };
}

const raw = (s: Session, slug: string, path: string, bytes: number) => api(s.token, "PUT", `/api/projects/${slug}/files/${path}`, new Uint8Array(bytes));

/** base64 text of `bytes` zero bytes (a multiple of 3). */
const base64 = (s: Session, slug: string, path: string, bytes: number) =>
  api(s.token, "PUT", `/api/projects/${slug}/files/${path}?encoding=base64`, "A".repeat((bytes / 3) * 4));

/** Fills the user's quota to `bytes` (whole MiB files). */
async function fill(s: Session, slug: string, mib: number) {
  for (let i = 0; i < mib; i++) expect((await raw(s, slug, `fill-${i}.bin`, MiB)).status).toBe(200);
}

const ONE_MIB_IN_THREES = MiB - 1; // 1048575 = 3 × 349525, so its base64 has no padding

describe("the storage quota under concurrent writers", { timeout: 60_000 }, () => {
  it("six parallel ~1 MiB base64 uploads with 2 MiB left: only what fits is stored", async () => {
    const s = await signIn("Race Base64");
    await createProject(s.token, "b64");
    await fill(s, "b64", 6);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => base64(s, "b64", `p${i}.bin`, ONE_MIB_IN_THREES)));
    const ok = answers.filter((r) => r.status === 200).length;
    expect(answers.every((r) => r.status === 200 || r.status === 413)).toBe(true);
    for (const refused of answers.filter((r) => r.status === 413)) expect(await json(refused)).toMatchObject({ code: "storage_quota_exceeded", limit: QUOTA });
    expect(ok).toBeGreaterThanOrEqual(1);
    expect((await inR2(s.userId)).bytes).toBeLessThanOrEqual(QUOTA);
    expect(await counted(s)).toEqual(await inR2(s.userId));
  });

  it("six parallel 1 MiB chunked uploads with 2 MiB left: only what fits is stored", async () => {
    const s = await signIn("Race Chunked");
    await createProject(s.token, "chunks");
    await fill(s, "chunks", 6);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => putChunked(s, "chunks", `c${i}.bin`, MiB)));
    expect(answers.every((r) => r.status === 200 || r.status === 413)).toBe(true);
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    expect((await inR2(s.userId)).bytes).toBeLessThanOrEqual(QUOTA);
    expect(await counted(s)).toEqual(await inR2(s.userId));
  });

  it("concurrent overwrites of one file of different sizes, repeated, leave the count equal to R2 (no space is gained)", async () => {
    const s = await signIn("Race Overwrite");
    await createProject(s.token, "over");
    expect((await raw(s, "over", "same.bin", MiB)).status).toBe(200);
    for (let round = 0; round < 3; round++) {
      const sizes = [MiB, 1024, MiB / 2, 10, MiB, 300_000, 7, MiB / 4];
      const answers = await Promise.all(sizes.map((n, i) => (i % 2 ? base64(s, "over", "same.bin", n - (n % 3)) : raw(s, "over", "same.bin", n))));
      expect(answers.map((r) => r.status)).toEqual(sizes.map(() => 200));
      expect(await counted(s)).toEqual(await inR2(s.userId));
    }
    // The quota still holds to the byte: filled up, the room left fits and a byte more does not.
    for (let i = 0; i < 8 && (await raw(s, "over", `fill-${i}.bin`, MiB)).status === 200; i++);
    const room = QUOTA - (await inR2(s.userId)).bytes;
    expect(room).toBeLessThan(MiB);
    expect((await raw(s, "over", "room.bin", room + 1)).status).toBe(413);
    expect((await raw(s, "over", "room.bin", room)).status).toBe(200);
    expect(await counted(s)).toEqual({ bytes: QUOTA, objects: (await inR2(s.userId)).objects });
  });

  it("concurrent deletes of one file give its bytes back once", async () => {
    const s = await signIn("Race Delete");
    await createProject(s.token, "del");
    await fill(s, "del", 3);
    const answers = await Promise.all(Array.from({ length: 6 }, () => api(s.token, "DELETE", "/api/projects/del/files/fill-0.bin")));
    expect(answers.some((r) => r.status === 200)).toBe(true);
    expect(answers.every((r) => r.status === 200 || r.status === 404)).toBe(true);
    expect(await counted(s)).toEqual(await inR2(s.userId));
    // 2 MiB stored, 5 more make 7 and then a MiB more does not fit; were the bytes given back twice, it would.
    for (let i = 0; i < 5; i++) expect((await raw(s, "del", `more-${i}.bin`, MiB)).status).toBe(200);
    expect((await raw(s, "del", "extra.bin", MiB)).status).toBe(413);
    expect((await inR2(s.userId)).bytes).toBeLessThanOrEqual(QUOTA);
  });

  it("a storm of every kind of writer and deleter on a small quota stores nothing past it, and the count ends equal to R2", async () => {
    const restore = setEnv({ MAX_STORAGE_BYTES: String(4 * MiB), MAX_STORED_FILES: "40" });
    try {
      const s = await signIn("Race Storm");
      await createProject(s.token, "storm");
      const storm: Promise<Response>[] = [];
      for (let i = 0; i < 4; i++) {
        storm.push(raw(s, "storm", `raw-${i}.bin`, MiB / 2));
        storm.push(base64(s, "storm", `b64-${i}.bin`, 3 * 150_000));
        storm.push(putChunked(s, "storm", `chunk-${i}.bin`, MiB / 2));
        storm.push(api(s.token, "PUT", `/api/projects/storm/files/dir-${i}/`));
        storm.push(raw(s, "storm", "shared.bin", (i + 1) * 100_000));
        storm.push(base64(s, "storm", "shared.bin", 3 * (i + 1) * 50_000));
        storm.push(api(s.token, "DELETE", "/api/projects/storm/files/shared.bin"));
        storm.push(api(s.token, "POST", "/api/projects", { name: `side ${i}`, files: { "assets/a.txt": "x".repeat(200_000) } }));
        storm.push(api(s.token, "DELETE", `/api/projects/side-${i}`));
      }
      const answers = await Promise.all(storm);
      // Each answer is a success, the quota's 413, or a 404/409 of a delete or create that raced its partner.
      for (const r of answers) expect([200, 201, 404, 409, 413]).toContain(r.status);
      expect(answers.filter((r) => r.status === 413).length).toBeGreaterThan(0);
      const stored = await inR2(s.userId);
      expect(stored.bytes).toBeLessThanOrEqual(4 * MiB);
      expect(stored.objects).toBeLessThanOrEqual(40);
      expect(await counted(s)).toEqual(stored);
    } finally {
      restore();
    }
  });
});

describe("reconciling a ledger with R2", { timeout: 30_000 }, () => {
  it("rebuilds a count corrupted behind its back and reports the drift it corrected", async () => {
    const s = await signIn("Reconcile Me");
    await createProject(s.token, "rec");
    await fill(s, "rec", 2);
    // Objects the ledger never saw, and one it counts that is gone.
    await env.FILES.put(`p/${s.userId}/rec/behind.bin`, new Uint8Array(3 * MiB));
    await env.FILES.put(`r/${s.userId}/secret.mp4`, new Uint8Array(1000));
    await env.FILES.delete(`p/${s.userId}/rec/fill-0.bin`);
    const before = await counted(s);
    expect(before).not.toEqual(await inR2(s.userId));

    const result = await ledgerOf(s.userId).reconcile(s.userId);
    expect(result.before).toEqual(before);
    expect(result.after).toEqual(await inR2(s.userId));
    expect(result.drift).toEqual({ bytes: 3 * MiB + 1000 - MiB, objects: 1 });
    expect(await counted(s)).toEqual(await inR2(s.userId));
    // The ledger also checks itself from its alarm, an hour after it last changed.
    await env.FILES.put(`p/${s.userId}/rec/behind-2.bin`, new Uint8Array(MiB));
    await runInDurableObject(ledgerOf(s.userId), (_instance, ctx) => {
      ctx.storage.sql.exec("UPDATE ledger SET reconcile_at = 0");
    });
    await runDurableObjectAlarm(ledgerOf(s.userId));
    expect(await counted(s)).toEqual(await inR2(s.userId));
    // The corrected count is what the quota checks: 5 MiB stored, 2 more (fill-0, fill-2) make 7, then 1 does not fit.
    await fill(s, "rec", 3);
    expect((await raw(s, "rec", "over.bin", MiB)).status).toBe(413);
    expect((await inR2(s.userId)).bytes).toBeLessThanOrEqual(QUOTA);
  });

  it("writes only the rows that differ from R2: none for a ledger in step, one per drifted key otherwise", async () => {
    // 1,300 objects over three projects and the renders, more than one listing page in one project.
    const userId = crypto.randomUUID();
    const keys = [
      ...Array.from({ length: 1050 }, (_, i) => `p/${userId}/big/f-${i}.txt`),
      ...Array.from({ length: 150 }, (_, i) => `p/${userId}/small/f-${i}.txt`),
      ...Array.from({ length: 70 }, (_, i) => `p/${userId}/other/dir/f-${i}.txt`),
      ...Array.from({ length: 30 }, (_, i) => `r/${userId}/render-${i}.mp4`),
    ];
    for (let i = 0; i < keys.length; i += 200) await Promise.all(keys.slice(i, i + 200).map((key) => env.FILES.put(key, "abc")));
    const ledger = ledgerOf(userId);
    expect(await ledger.usage(userId)).toEqual({ bytes: 3 * keys.length, objects: keys.length });

    const inStep = await ledger.reconcile(userId);
    expect(inStep.drift).toEqual({ bytes: 0, objects: 0 });
    expect(inStep.rowsWritten).toBe(0);

    // Behind the ledger's back: one file grows, one is deleted, one appears.
    await env.FILES.put(`p/${userId}/small/f-7.txt`, "abcdef");
    await env.FILES.delete(`p/${userId}/big/f-1049.txt`);
    await env.FILES.put(`p/${userId}/other/new.txt`, "ab");
    const drifted = await ledger.reconcile(userId);
    expect(drifted.drift).toEqual({ bytes: 3 - 3 + 2, objects: 0 });
    // Rows written as Cloudflare counts them (a new key's row and its primary-key index entry): of the order of the
    // three drifted keys, not of the 1,300 (the rebuild before this change wrote every row twice: 2,600 and more).
    expect(drifted.rowsWritten).toBeGreaterThanOrEqual(3);
    expect(drifted.rowsWritten).toBeLessThanOrEqual(2 * 3);
    expect(await ledger.usage(userId)).toEqual(await inR2(userId));
  }, 120_000);

  it("counts what a user already has in R2 the first time their ledger is used", async () => {
    const userId = crypto.randomUUID();
    await env.FILES.put(`p/${userId}/old/index.html`, "x".repeat(5000));
    await env.FILES.put(`p/${userId}/old/assets/`, "");
    await env.FILES.put(`r/${userId}/old.mp4`, new Uint8Array(2 * MiB));
    await env.FILES.put(`seg/${userId}/render/0`, new Uint8Array(MiB)); // scratch: not counted
    expect(await ledgerOf(userId).usage(userId)).toEqual({ bytes: 5000 + 2 * MiB, objects: 3 });
  });

  it("settles a reservation nobody settled (a Worker that died mid-write) from the alarm, from what R2 holds", async () => {
    const s = await signIn("Lapsed Writer");
    await createProject(s.token, "lapse");
    const ledger = ledgerOf(s.userId);
    const key = `p/${s.userId}/lapse/orphan.bin`;
    const limit = { bytes: QUOTA, objects: 100_000 };
    const reserved = await ledger.reserve(s.userId, [{ key, bytes: 2 * MiB, exact: true }], limit);
    expect(reserved.ok).toBe(true);
    // Held while pending: the reservation counts against the quota.
    expect((await counted(s)).bytes).toBe((await inR2(s.userId)).bytes + 2 * MiB);
    // The write landed (smaller), then its Worker died before settling.
    await env.FILES.put(key, new Uint8Array(MiB));
    await runInDurableObject(ledger, (_instance, ctx) => {
      ctx.storage.sql.exec("UPDATE tickets SET expires_at = 0");
    });
    await runDurableObjectAlarm(ledger);
    expect(await counted(s)).toEqual(await inR2(s.userId));
    // A writer still holding the lapsed ticket cannot renew it: its last bytes would have to reserve again.
    expect(reserved.ok && (await ledger.renew(s.userId, reserved.tickets[0]!.id))).toBe(false);
  });
});
