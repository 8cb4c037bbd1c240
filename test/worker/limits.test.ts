// Body limits and names. Every JSON body is bounded (1 MiB; project creation, which carries whole files, by the
// upload limit, MAX_FILE_BYTES: 1 MiB in these tests), whether the client declares its length or streams it, and
// a refused body writes nothing. File paths and project names refuse control, bidirectional and invisible
// characters wherever they enter: file URLs, the files map, the render's composition, the project's name.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { JSON_BODY_LIMIT } from "../../worker/http/read-body.ts";
import { api, BASE, createProject, json, type Session, signIn } from "./helpers.ts";
import { countRows, setEnv } from "./idea-helpers.ts";

const MiB = 1024 * 1024;

/** A body streamed in chunks with no Content-Length (Transfer-Encoding: chunked), as a client that cannot know. */
function streamed(text: string, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

function post(token: string, path: string, body: string | ReadableStream<Uint8Array>, method = "POST") {
  return SELF.fetch(`${BASE}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body,
  });
}

async function projectNames(s: Session): Promise<string[]> {
  return (await json<{ projects: { name: string }[] }>(await api(s.token, "GET", "/api/projects"))).projects.map((p) => p.name);
}

async function storedKeys(s: Session): Promise<string[]> {
  return (await env.FILES.list({ prefix: `p/${s.userId}/` })).objects.map((o) => o.key);
}

async function expect413(res: Response) {
  expect(res.status, await res.clone().text()).toBe(413);
  expect((await json<{ error: string }>(res)).error).toMatch(/^request body is larger than the limit of \d+ bytes \(\d+(\.\d)? MiB\)/);
}

describe("JSON body limit (1 MiB on every JSON route)", () => {
  const idea = (size: number) => JSON.stringify({ title: "A long idea", body: "x".repeat(size) });

  it("refuses a larger body, declared or streamed, with 413 and writes nothing", async () => {
    const s = await signIn("limits-json");
    const before = await countRows("ideas");
    await expect413(await post(s.token, "/api/ideas", idea(JSON_BODY_LIMIT)));
    await expect413(await post(s.token, "/api/ideas", streamed(idea(JSON_BODY_LIMIT))));
    expect(await countRows("ideas")).toBe(before);

    await createProject(s.token, "Limit Render");
    const options = JSON.stringify({ quality: "draft", padding: "x".repeat(2 * MiB) });
    await expect413(await post(s.token, "/api/projects/limit-render/render", streamed(options)));
    expect((await json<{ status: string }>(await api(s.token, "GET", "/api/projects/limit-render/render"))).status).toBe("none");
    const restore = setEnv({ ADMIN_USER_IDS: s.userId }); // research is written by admins and bots
    try {
      await expect413(await post(s.token, "/api/research", JSON.stringify({ slug: "big", name: "Big", body_md: "x".repeat(2 * MiB) })));
      expect((await api(s.token, "GET", "/api/research/big")).status).toBe(404);
    } finally {
      restore();
    }
  });

  it("still reads a body just under the limit (the route then judges its fields)", async () => {
    const s = await signIn("limits-json-under");
    const res = await post(s.token, "/api/ideas", idea(JSON_BODY_LIMIT - 100));
    expect(res.status).toBe(400); // read whole, then refused by the schema: body is at most 10,000 characters
    expect((await json<{ error: string }>(res)).error).toMatch(/^invalid body: /);
  });
});

/**
 * A body that sends `bytes` in chunks and then never ends (a client stalling or trickling forever). A reader that
 * stops at the limit answers; one that waits for the end hangs. `cancelled` resolves when the reader gives up on it.
 */
function stalled(bytes: number, chunk = 64 * 1024) {
  let sent = 0;
  let markCancelled = () => {};
  const cancelled = new Promise<void>((resolve) => (markCancelled = resolve));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return new Promise<void>(() => {}); // never another byte, never the end
      controller.enqueue(new Uint8Array(chunk).fill(0x20));
      sent += chunk;
    },
    cancel: () => markCancelled(),
  });
  return { body, cancelled };
}

/** The answer, or "hung" if none comes within `ms`. */
async function within(ms: number, answer: Promise<Response>): Promise<Response | "hung"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), ms)));
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe("Idempotency-Key reads no more than its route's own body limit", () => {
  // The upload limit raised past the JSON limit, so reading ahead with the upload limit (the old behaviour) shows.
  const withUploadLimit = async (bytes: number, run: () => Promise<void>) => {
    const restore = setEnv({ MAX_FILE_BYTES: String(bytes) });
    try {
      await run();
    } finally {
      restore();
    }
  };

  it("a stalled body past 1 MiB on a JSON route is the route's 413 at once, not a wait for the upload limit", async () => {
    const s = await signIn("limits-idem-stalled");
    await withUploadLimit(8 * MiB, async () => {
      const before = await countRows("ideas");
      const { body, cancelled } = stalled(JSON_BODY_LIMIT + 256 * 1024);
      const res = await within(
        5_000,
        SELF.fetch(`${BASE}/api/ideas`, {
          method: "POST",
          headers: { Authorization: `Bearer ${s.token}`, "Content-Type": "application/json", "Idempotency-Key": "stalled-idea" },
          body,
        }),
      );
      expect(res, "the request hung: the body was read past the route's limit").not.toBe("hung");
      const refused = res as Response;
      expect(refused.status).toBe(413);
      expect((await json<{ error: string }>(refused)).error).toMatch(/^request body is larger than the limit of 1048576 bytes \(1 MiB\)/);
      expect(await within(5_000, cancelled.then(() => new Response()))).not.toBe("hung"); // the read was given up
      expect(await countRows("ideas")).toBe(before);
      // Nothing was kept for the key: the same key with a proper body creates.
      const created = await api(s.token, "POST", "/api/ideas", { title: "A stalled idea, retried", body: "Now a small body." }, { "Idempotency-Key": "stalled-idea" });
      expect(created.status).toBe(201);
      expect(created.headers.get("Idempotent-Replayed")).toBeNull();
    });
  });

  it("a declared Content-Length past 1 MiB on a render or comment POST is refused without waiting for the body", async () => {
    const s = await signIn("limits-idem-declared");
    await createProject(s.token, "Idem Limit");
    await withUploadLimit(8 * MiB, async () => {
      for (const path of ["/api/projects/idem-limit/render", "/api/ideas/no-such-idea/comments"]) {
        // 2 MiB declared, 64 KiB sent, then nothing: only a refusal on the declared length answers.
        const declared = new FixedLengthStream(2 * MiB);
        const writer = declared.writable.getWriter();
        void writer.write(new Uint8Array(64 * 1024).fill(0x20)).catch(() => undefined);
        const res = await within(
          5_000,
          SELF.fetch(`${BASE}${path}`, {
            method: "POST",
            headers: { Authorization: `Bearer ${s.token}`, "Content-Type": "application/json", "Idempotency-Key": `declared-${path}` },
            body: declared.readable,
          }),
        );
        expect(res, `${path}: the request hung waiting for a body over the route's limit`).not.toBe("hung");
        expect((res as Response).status, path).toBe(413);
        expect((await json<{ error: string }>(res as Response)).error).toMatch(/^request body is larger than the limit of 1048576 bytes/);
        void writer.abort().catch(() => undefined);
      }
      expect((await json<{ status: string }>(await api(s.token, "GET", "/api/projects/idem-limit/render"))).status).toBe("none");
    });
  });

  it("project creation keeps its own, larger limit (the upload limit) with its own hint", async () => {
    const s = await signIn("limits-idem-project");
    await withUploadLimit(3 * MiB, async () => {
      const key = { "Idempotency-Key": "big-project" };
      const content = "z".repeat(Math.round(1.5 * MiB));
      const res = await api(s.token, "POST", "/api/projects", { name: "Idem Big", files: { "assets/big.txt": content } }, key);
      expect(res.status, await res.clone().text()).toBe(201);
      const over = await api(s.token, "POST", "/api/projects", { name: "Idem Bigger", files: { "assets/big.txt": "z".repeat(4 * MiB) } }, { "Idempotency-Key": "bigger" });
      expect(over.status).toBe(413);
      const error = (await json<{ error: string }>(over)).error;
      expect(error).toMatch(/^request body is larger than the limit of 3145728 bytes \(3 MiB\)/);
      expect(error).toContain("PUT /api/projects/:slug/files/<path>");
    });
  });
});

describe("POST /api/projects: the upload limit for the whole body, html and files map included", () => {
  it.each([
    ["a files map over the limit", () => ({ files: { "assets/big.txt": "x".repeat(MiB + 1) } })],
    ["a files map whose files add up past the limit", () => ({ files: { "a.txt": "x".repeat(600_000), "b.txt": "y".repeat(600_000) } })],
    ["html over the limit", () => ({ html: `<html>${"x".repeat(MiB)}</html>` })],
  ])("refuses %s with 413: no project, no stored object", async (_, extra) => {
    const s = await signIn(`limits-${Math.random().toString(36).slice(2, 8)}`);
    const body = JSON.stringify({ name: "Too Big", ...extra() });
    for (const sent of [body, streamed(body)]) {
      const res = await post(s.token, "/api/projects", sent);
      await expect413(res);
    }
    expect(await projectNames(s)).toEqual([]);
    expect(await storedKeys(s)).toEqual([]);
  });

  it("names the way to upload large files in the 413", async () => {
    const s = await signIn("limits-hint");
    const res = await post(s.token, "/api/projects", JSON.stringify({ name: "Hint", files: { "a.bin": "x".repeat(MiB + 1) } }));
    expect((await json<{ error: string }>(res)).error).toContain("PUT /api/projects/:slug/files/<path>");
  });

  it("follows MAX_FILE_BYTES, separately from the 1 MiB of other JSON routes", async () => {
    const s = await signIn("limits-raised");
    const restore = setEnv({ MAX_FILE_BYTES: String(3 * MiB) });
    try {
      const content = "z".repeat(Math.round(1.5 * MiB));
      const res = await post(s.token, "/api/projects", JSON.stringify({ name: "Raised", files: { "assets/big.txt": content } }));
      expect(res.status, await res.clone().text()).toBe(201);
      const file = await api(s.token, "GET", "/api/projects/raised/files/assets/big.txt");
      expect((await file.text()).length).toBe(content.length);
      await expect413(await post(s.token, "/api/ideas", JSON.stringify({ title: "Raised idea", body: content })));
    } finally {
      restore();
    }
  });
});

describe("base64 file uploads", () => {
  it("refuse a streamed (chunked) base64 body past the limit with 413, writing nothing", async () => {
    const s = await signIn("limits-base64");
    await createProject(s.token, "B64");
    const before = await storedKeys(s);
    const text = btoa("x".repeat(3 * 256 * 1024)).repeat(2); // 2 MiB of base64 for a 1 MiB limit
    const res = await SELF.fetch(`${BASE}/api/projects/b64/files/assets/big.bin?encoding=base64`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${s.token}` },
      body: streamed(text),
    });
    expect(res.status).toBe(413);
    expect((await json<{ error: string }>(res)).error).toMatch(/^file is larger than the limit of 1048576 bytes/);
    expect(await storedKeys(s)).toEqual(before);
  });
});

/** Characters no name may carry, by what they do. */
const INVISIBLE = {
  "right-to-left override": "\u202e",
  "left-to-right isolate": "\u2066",
  "zero width space": "\u200b",
  "zero width joiner": "\u200d",
  "byte-order mark": "\ufeff",
  "escape (C0 control)": "\u001b",
  "C1 control": "\u0085",
  DEL: "\u007f",
  "line separator": "\u2028",
  "hangul filler": "\u3164",
  "tag character": "\u{e0041}",
};
const VISIBLE = ["東京の夜", "Ça va", "love ❤️", "שלום"];

describe("names refuse control, bidirectional and invisible characters (400, nothing written)", () => {
  it.each(Object.entries(INVISIBLE))("%s in a file path: PUT, POST, GET and DELETE", async (_, char) => {
    const s = await signIn(`names-file-${char.codePointAt(0)}`);
    await createProject(s.token, "Names");
    const before = await storedKeys(s);
    const path = `/api/projects/names/files/assets/${encodeURIComponent(`invoice${char}txt.exe`)}`;
    for (const method of ["PUT", "POST", "GET", "DELETE"]) {
      const res = await api(s.token, method, path, method === "PUT" || method === "POST" ? "payload" : undefined);
      expect(res.status, method).toBe(400);
      expect((await json<{ error: string }>(res)).error).toMatch(/^invalid path: path contains .+ \(U\+[0-9A-F]{4,5}\)$/);
    }
    expect(await storedKeys(s)).toEqual(before);
  });

  it.each(Object.entries(INVISIBLE))("%s in a project's name, createdBy or files key", async (_, char) => {
    const s = await signIn(`names-project-${char.codePointAt(0)}`);
    const bodies = [
      { name: `Bad${char}Name` },
      { name: "Fine name", createdBy: `age${char}nt` },
      { name: "Fine name", files: { [`assets/a${char}b.txt`]: "x" } },
    ];
    for (const body of bodies) {
      const res = await api(s.token, "POST", "/api/projects", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json<{ error: string }>(res)).error).toMatch(/^invalid (name|createdBy|files key .+): (path )?contains /s);
    }
    expect(await projectNames(s)).toEqual([]);
    expect(await storedKeys(s)).toEqual([]);
  });

  it("a render's composition option with a bidirectional override is a 400 and starts nothing", async () => {
    const s = await signIn("names-render");
    await createProject(s.token, "Names Render");
    const res = await api(s.token, "POST", "/api/projects/names-render/render", { composition: "compositions/intro\u202elmth.html" });
    expect(res.status).toBe(400);
    expect((await json<{ error: string }>(res)).error).toMatch(/bidirectional control character \(U\+202E\)/);
    expect((await json<{ status: string }>(await api(s.token, "GET", "/api/projects/names-render/render"))).status).toBe("none");
  });

  it("keeps names in any script, with emoji and their variation selectors", async () => {
    const s = await signIn("names-visible");
    for (const [i, name] of VISIBLE.entries()) {
      const res = await api(s.token, "POST", "/api/projects", { name: `Project ${i} ${name}`, files: { [`assets/${name}.txt`]: name } });
      expect(res.status, name).toBe(201);
      const { slug, project } = await json<{ slug: string; project: { displayName: string } }>(res);
      expect(project.displayName).toBe(`Project ${i} ${name}`);
      const put = await api(s.token, "PUT", `/api/projects/${slug}/files/assets/${encodeURIComponent(`${name} 2.txt`)}`, name);
      expect(put.status).toBe(200);
      const paths = (await json<{ files: { path: string }[] }>(await api(s.token, "GET", `/api/projects/${slug}/files`))).files.map((f) => f.path);
      expect(paths).toEqual(expect.arrayContaining([`assets/${name}.txt`, `assets/${name} 2.txt`]));
    }
  });
});
