// /play serves the GSAP release a render would: the play page's CDN script tag (jsDelivr, cdnjs, unpkg) points at
// the content origin's copy of that release, read from the Worker's assets, byte for byte the npm package's file;
// an unshipped 3.x gets the nearest shipped release and the page says so (the player's bar shows it).
import { describe, expect, it } from "vitest";
import gsap3125 from "gsap-3.12.5/dist/gsap.min.js?raw";
import gsap3130 from "gsap-3.13.0/dist/gsap.min.js?raw";
import gsap3142 from "gsap-3.14.2/dist/gsap.min.js?raw";
import { api, createProject, signIn } from "./helpers.ts";
import { CONTENT, detail, get } from "./content-helpers.ts";

const page = (gsapUrl: string) => `<!doctype html><html><head><script src="${gsapUrl}"></script></head><body>
<div data-composition-id="played" data-start="0" data-duration="1" data-width="320" data-height="180"></div>
<script>window.__timelines = { played: gsap.timeline({ paused: true }).to({}, { duration: 1 }) };</script>
</body></html>`;

/** The play page for `gsapUrl`: where its GSAP script points, and the player script's notice (entities decoded). */
async function play(token: string, contentUrl: string, gsapUrl: string): Promise<{ src: string; notice: string | null }> {
  expect((await api(token, "PUT", "/api/projects/played/files/index.html", page(gsapUrl))).status).toBe(200);
  const res = await get(contentUrl);
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).not.toContain(`src="${gsapUrl}"`);
  const src = /<script src="(\/_studio\/gsap\/[^"]+)"><\/script>/.exec(html)?.[1];
  const notice = /data-notice="([^"]*)"/.exec(html)?.[1]?.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&") ?? null;
  return { src: src!, notice };
}

async function bytesOf(path: string): Promise<string> {
  const res = await get(`${CONTENT}${path}`);
  expect(res.status, path).toBe(200);
  expect(res.headers.get("Content-Type")).toContain("javascript");
  return res.text();
}

describe("/play's GSAP", () => {
  it("is the very release the page pins, from jsDelivr, cdnjs or unpkg, byte for byte", async () => {
    const s = await signIn("play-gsap-exact");
    await createProject(s.token, "Played");
    const { contentUrl } = await detail(s.token, "played");
    for (const [url, src, bytes] of [
      ["https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js", "/_studio/gsap/3.12.5/gsap.min.js", gsap3125],
      ["https://cdnjs.cloudflare.com/ajax/libs/gsap/3.12.5/gsap.min.js", "/_studio/gsap/3.12.5/gsap.min.js", gsap3125],
      ["https://unpkg.com/gsap@3.12.5/dist/gsap.js", "/_studio/gsap/3.12.5/gsap.js", gsap3125],
      ["https://cdn.jsdelivr.net/npm/gsap@3.13.0/dist/gsap.min.js", "/_studio/gsap/3.13.0/gsap.min.js", gsap3130],
      ["https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js", "/_studio/gsap/3.14.2/gsap.min.js", gsap3142],
    ] as const) {
      const played = await play(s.token, contentUrl, url);
      expect(played, url).toEqual({ src, notice: null });
      expect(await bytesOf(played.src), url).toBe(bytes);
    }
    expect(gsap3125).not.toBe(gsap3142);
    // Links made before versions: the default release.
    expect(await bytesOf("/_studio/gsap/gsap.min.js")).toBe(gsap3142);
  });

  it("is the nearest shipped release for an unshipped 3.x (or none pinned), and the page states the substitution", async () => {
    const s = await signIn("play-gsap-nearest");
    await createProject(s.token, "Played");
    const { contentUrl } = await detail(s.token, "played");
    for (const [url, requested, served, bytes] of [
      ["https://cdn.jsdelivr.net/npm/gsap@3.12.2/dist/gsap.min.js", "3.12.2", "3.12.5", gsap3125],
      ["https://cdnjs.cloudflare.com/ajax/libs/gsap/3.13.4/gsap.min.js", "3.13.4", "3.13.0", gsap3130],
      ["https://unpkg.com/gsap@3/dist/gsap.min.js", "3", "3.14.2", gsap3142],
      ["https://cdn.jsdelivr.net/npm/gsap/dist/gsap.min.js", "(no pinned version)", "3.14.2", gsap3142],
    ] as const) {
      const played = await play(s.token, contentUrl, url);
      expect(played.src, url).toBe(`/_studio/gsap/${served}/gsap.min.js`);
      // The render's finding, word for word (render-node/src/browser/intercept-requests.ts).
      expect(played.notice, url).toBe(`GSAP ${requested} requested (${url}); served GSAP ${served}, the nearest release render nodes ship`);
      expect(await bytesOf(played.src), url).toBe(bytes);
    }
  });

  it("answers 404 for a release or file it does not serve", async () => {
    for (const [path, words] of [
      ["/_studio/gsap/3.12.2/gsap.min.js", "GSAP 3.12.2 is not served here: the releases are 3.12.5, 3.13.0, 3.14.2"],
      ["/_studio/gsap/3.12.5/ScrollTrigger.min.js", "only the GSAP core"],
      ["/_studio/gsap/..%2F..%2Findex.html/gsap.min.js", "is not served here"],
      ["/_studio/gsap/3.12.5/..%2F..%2Findex.html", "only the GSAP core"],
    ] as const) {
      const res = await get(`${CONTENT}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toContain(words);
    }
  });
});
