// Byte ranges on served files, through the real Worker and R2 (which reads the range): one range is a 206 with the
// exact bytes and Content-Range; several, invalid or foreign ranges get the whole file (200); a range past the end
// is a 416; If-Range resumes only while the ETag still matches, else the whole, current file.
import { beforeAll, describe, expect, it } from "vitest";
import { api, createProject, signIn, type Session } from "./helpers.ts";

let s: Session;
const FILE = "/api/projects/ranges-demo/files/assets/digits.txt";
const get = (headers: Record<string, string>, method = "GET") => api(s.token, method, FILE, undefined, headers);

beforeAll(async () => {
  s = await signIn("ranges-user");
  await createProject(s.token, "Ranges Demo");
  await api(s.token, "PUT", FILE, "0123456789");
});

describe("Range on served files", () => {
  it.each([
    ["bytes=0-4", "bytes 0-4/10", "01234"],
    ["bytes=5-", "bytes 5-9/10", "56789"],
    ["bytes=-3", "bytes 7-9/10", "789"],
    ["bytes=-30", "bytes 0-9/10", "0123456789"],
    ["bytes=8-100", "bytes 8-9/10", "89"],
    ["bytes=0-", "bytes 0-9/10", "0123456789"],
    ["bytes= 2 - 3", "bytes 2-3/10", "23"],
  ])("%s is a 206 with %s", async (range, contentRange, text) => {
    const res = await get({ Range: range });
    expect(res.status).toBe(206);
    expect(res.headers.get("Content-Range")).toBe(contentRange);
    expect(res.headers.get("Content-Length")).toBe(String(text.length));
    expect(await res.text()).toBe(text);
  });

  it.each(["bytes=0-1,4-5", "bytes=5-2", "items=0-1", "bytes=-", "bytes=abc"])("%s gets the whole file (200)", async (range) => {
    const res = await get({ Range: range });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Range")).toBeNull();
    expect(await res.text()).toBe("0123456789");
  });

  it.each(["bytes=10-", "bytes=10-20", "bytes=-0"])("%s is a 416 naming the size", async (range) => {
    const res = await get({ Range: range });
    expect(res.status).toBe(416);
    expect(res.headers.get("Content-Range")).toBe("bytes */10");
    expect(((await res.json()) as { error: string }).error).toBe(`range not satisfiable: ${range} (size 10)`);
  });

  it("resumes with If-Range only while the ETag matches; a date or a changed file gets the whole, current file", async () => {
    const etag = (await get({})).headers.get("ETag")!;
    const resumed = await get({ Range: "bytes=6-", "If-Range": etag });
    expect(resumed.status).toBe(206);
    expect(await resumed.text()).toBe("6789");
    const dated = await get({ Range: "bytes=6-", "If-Range": new Date().toUTCString() });
    expect(dated.status).toBe(200);
    expect(await dated.text()).toBe("0123456789");
    await api(s.token, "PUT", FILE, "abcdefghij");
    const changed = await get({ Range: "bytes=6-", "If-Range": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect(await changed.text()).toBe("abcdefghij");
    await api(s.token, "PUT", FILE, "0123456789");
  });

  it("answers HEAD with a range with the headers and no body", async () => {
    const res = await get({ Range: "bytes=2-5" }, "HEAD");
    expect(res.status).toBe(206);
    expect(res.headers.get("Content-Range")).toBe("bytes 2-5/10");
    expect(await res.text()).toBe("");
  });
});
