import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, BASE, createProject, json, signIn, type Session } from "./helpers.ts";

type Entry = { path: string; size: number; type: string };
let s: Session;
const F = "/api/projects/files-demo/files";

async function listing(): Promise<Entry[]> {
  return (await json<{ files: Entry[] }>(await api(s.token, "GET", F))).files;
}

beforeAll(async () => {
  s = await signIn("files-user");
  await createProject(s.token, "Files Demo");
});

describe("file writes and reads", () => {
  it("writes bytes exactly, creates parents, overwrites, and answers { written, slug, path, bytes, url }", async () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    const res = await api(s.token, "PUT", `${F}/assets/img/all-bytes.bin`, bytes);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      written: true,
      slug: "files-demo",
      path: "assets/img/all-bytes.bin",
      bytes: 256,
      url: `${BASE}${F}/assets/img/all-bytes.bin`,
    });
    const back = new Uint8Array(await (await api(s.token, "GET", `${F}/assets/img/all-bytes.bin`)).arrayBuffer());
    expect(back).toEqual(bytes);
    await api(s.token, "POST", `${F}/assets/img/all-bytes.bin`, "short");
    expect(await (await api(s.token, "GET", `${F}/assets/img/all-bytes.bin`)).text()).toBe("short");
    expect((await listing()).map((e) => e.path)).toEqual(expect.arrayContaining(["assets/img", "assets/img/all-bytes.bin"]));
  });

  it("decodes ?encoding=base64 and refuses a body that is not base64", async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);
    const b64 = btoa(String.fromCharCode(...png));
    const res = await api(s.token, "PUT", `${F}/assets/tiny.png?encoding=base64`, b64);
    expect((await json<{ bytes: number }>(res)).bytes).toBe(png.length);
    const got = await api(s.token, "GET", `${F}/assets/tiny.png`);
    expect(got.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(png);
    const bad = await api(s.token, "PUT", `${F}/assets/bad.png?encoding=base64`, "not base64 at all!");
    expect(bad.status).toBe(400);
    expect((await json<{ error: string }>(bad)).error).toMatch(/base64/);
    expect((await listing()).map((e) => e.path)).not.toContain("assets/bad.png");
  });

  it("serves the right content type, ?download as an attachment, and 404 for a missing file", async () => {
    await api(s.token, "PUT", `${F}/compositions/scene one.html`, "<p>scene</p>");
    const html = await api(s.token, "GET", `${F}/compositions/scene%20one.html`);
    expect(html.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const dl = await api(s.token, "GET", `${F}/compositions/scene%20one.html?download`);
    expect(dl.headers.get("Content-Disposition")).toMatch(/^attachment; filename="scene one.html"/);
    const missing = await api(s.token, "GET", `${F}/nope.txt`);
    expect(missing.status).toBe(404);
    expect((await json<{ error: string }>(missing)).error).toMatch(/nope\.txt/);
  });

  it("supports a single Range (206), suffix and open ranges, and 416 past the end", async () => {
    await api(s.token, "PUT", `${F}/assets/digits.txt`, "0123456789");
    const get = (range: string) => api(s.token, "GET", `${F}/assets/digits.txt`, undefined, { Range: range });
    const mid = await get("bytes=2-5");
    expect(mid.status).toBe(206);
    expect(mid.headers.get("Content-Range")).toBe("bytes 2-5/10");
    expect(await mid.text()).toBe("2345");
    expect(await (await get("bytes=7-")).text()).toBe("789");
    expect(await (await get("bytes=-3")).text()).toBe("789");
    expect(await (await get("bytes=8-100")).text()).toBe("89");
    const past = await get("bytes=10-20");
    expect(past.status).toBe(416);
    expect(past.headers.get("Content-Range")).toBe("bytes */10");
    const whole = await api(s.token, "GET", `${F}/assets/digits.txt`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
  });

  it("refuses files larger than the configured limit with 413 and stores nothing", async () => {
    const limit = Number(env.MAX_FILE_BYTES);
    const res = await api(s.token, "PUT", `${F}/assets/huge.bin`, new Uint8Array(limit + 1));
    expect(res.status).toBe(413);
    expect((await json<{ error: string }>(res)).error).toMatch(/limit/);
    expect((await listing()).map((e) => e.path)).not.toContain("assets/huge.bin");
  });

  it("streams a body of unknown length (chunked) and still enforces the limit", async () => {
    const chunks = (n: number) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < n; i++) controller.enqueue(new Uint8Array(64 * 1024).fill(i));
          controller.close();
        },
      });
    const ok = await SELF.fetch(`${BASE}${F}/assets/streamed.bin`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${s.token}` },
      body: chunks(4),
      // @ts-expect-error duplex is required for streamed request bodies
      duplex: "half",
    });
    expect((await json<{ bytes: number }>(ok)).bytes).toBe(4 * 64 * 1024);
    const tooBig = await SELF.fetch(`${BASE}${F}/assets/streamed-big.bin`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${s.token}` },
      body: chunks(17),
      // @ts-expect-error duplex is required for streamed request bodies
      duplex: "half",
    });
    expect(tooBig.status).toBe(413);
    expect((await listing()).map((e) => e.path)).not.toContain("assets/streamed-big.bin");
  });

  it("leaves .thumbnails and .waveform-cache out of listings", async () => {
    await api(s.token, "PUT", `${F}/.thumbnails/x.png`, "t");
    await api(s.token, "PUT", `${F}/assets/.waveform-cache/w.json`, "w");
    const paths = (await listing()).map((e) => e.path);
    expect(paths.some((p) => p.includes(".thumbnails") || p.includes(".waveform-cache"))).toBe(false);
  });
});

describe("deletes", () => {
  it("deletes files and whole directories, protects index.html, and 404s what is not there", async () => {
    await api(s.token, "PUT", `${F}/trash/a.txt`, "a");
    await api(s.token, "PUT", `${F}/trash/sub/b.txt`, "b");
    const del = await api(s.token, "DELETE", `${F}/trash/a.txt`);
    expect(await del.json()).toEqual({ deleted: true, slug: "files-demo", path: "trash/a.txt" });
    expect((await api(s.token, "DELETE", `${F}/trash`)).status).toBe(200);
    expect((await listing()).map((e) => e.path).filter((p) => p.startsWith("trash"))).toEqual([]);
    const protectedRes = await api(s.token, "DELETE", `${F}/index.html`);
    expect(protectedRes.status).toBe(403);
    expect((await json<{ error: string }>(protectedRes)).error).toMatch(/index\.html is protected/);
    expect((await api(s.token, "GET", `${F}/index.html`)).status).toBe(200);
    expect((await api(s.token, "DELETE", `${F}/trash`)).status).toBe(404);
  });

  it("refuses to put a file where a directory is, or inside a file", async () => {
    await api(s.token, "PUT", `${F}/clash/inner.txt`, "x");
    expect((await api(s.token, "PUT", `${F}/clash`, "file over dir")).status).toBe(409);
    await api(s.token, "PUT", `${F}/plain.txt`, "p");
    expect((await api(s.token, "PUT", `${F}/plain.txt/child.txt`, "c")).status).toBe(409);
  });
});

describe("path traversal corpus", () => {
  // Every spelling below must be a 400 with { error } and write nothing. Plain "/../" and "/%2e%2e/" segments never
  // reach the Worker as such: URL parsing resolves them first (the client's, workerd's under `wrangler dev` even for
  // `curl --path-as-is`, Cloudflare's edge in production), so they arrive as another path of the caller's own.
  // These are the spellings that survive to the Worker; worker/http/dot-segments.ts refuses them on the raw URL.
  const corpus = [
    "..%2f..%2f..%2fescape.txt",
    "%2e%2e%5cescape.txt",
    "%2E.%2Fescape.txt",
    ".%2E%2fescape.txt",
    "%2e%2fescape.txt",
    "assets%2f%2e%2e%2f%2e%2e%2fescape.txt",
    "assets/..%2fescape.txt",
    "assets/%2e%2e%5c%2e%2e%5cescape.txt",
    "%252e%252e%255cescape.txt",
    "%25252e%25252e%25252fescape.txt",
    "assets/..%c0%afescape.txt",
    "..%2Fescape.txt",
    "..%2fescape.txt",
    "%2e%2e%2fescape.txt",
    "%2E%2E%2Fescape.txt",
    "assets%2F..%2F..%2Fescape.txt",
    "..%5cescape.txt",
    "assets%5c..%5cescape.txt",
    "%5cetc%5cpasswd",
    "%252e%252e%252fescape.txt",
    "%2fetc%2fpasswd",
    "C:%5cwindows%5cescape.txt",
    "assets/a%00.txt",
    "assets/..hidden",
    "assets//double.txt",
    "assets%2f%2e%2fdot.txt",
    "bad%ZZencoding.txt",
  ];
  for (const raw of corpus) {
    it(`rejects ${raw}`, async () => {
      const before = (await listing()).length;
      for (const method of ["PUT", "GET", "DELETE"]) {
        const res = await api(s.token, method, `${F}/${raw}`, method === "PUT" ? "pwned" : undefined);
        expect(res.status, `${method} ${raw}`).toBe(400);
        expect((await json<{ error: string }>(res)).error).toMatch(/^invalid path: /);
      }
      expect((await listing()).length).toBe(before);
    });
  }

  it.each(["..%2f..%2fapi%2fme", "%2e%2e%5cx.mp4", "..%5c..%5cx.mp4", "%252e%252e%252fx.mp4", "files-demo_x%2f..%2f..%2fy.mp4"])(
    "refuses /renders/%s with 400 (GET and DELETE)",
    async (raw) => {
      for (const method of ["GET", "DELETE"]) {
        const res = await api(s.token, method, `/renders/${raw}`);
        expect(res.status, `${method} ${raw}`).toBe(400);
        expect((await json<{ error: string }>(res)).error).toMatch(/^invalid path: /);
      }
    },
  );
});
