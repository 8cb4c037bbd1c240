// Google Fonts for render nodes (which have no network): the Worker fetches a linked stylesheet and its font files
// once from (fake) Google, keeps them in the project's reserved folder in R2 (the owner's files, counted in their
// storage quota), and lists them among the job's files with the font URLs made local. At most 10 stylesheets per
// project, for render jobs and the /play page alike.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";
import { setEnv } from "./idea-helpers.ts";
import { claim, nodeCall, registerNode } from "./node-helpers.ts";

const LINK = "https://fonts.googleapis.com/css2?family=Rubik+Mono+One&family=Bungee:wght@400&display=swap";

const page = (head: string) =>
  `<!doctype html><html><head>${head}</head><body><div data-composition-id="main" data-start="0" data-duration="1" data-width="320" data-height="180"></div></body></html>`;

/** What the owner's storage count says (GET /api/me). */
async function storageOf(token: string): Promise<{ bytes: number; objects: number }> {
  const { storage } = await json<{ storage: { used: number; files: number } }>(await api(token, "GET", "/api/me"));
  return { bytes: storage.used, objects: storage.files };
}

/** Everything the user has in R2 (project files and renders). */
async function inR2(userId: string): Promise<{ bytes: number; objects: number }> {
  const objects = [...(await env.FILES.list({ prefix: `p/${userId}/` })).objects, ...(await env.FILES.list({ prefix: `r/${userId}/` })).objects];
  return { bytes: objects.reduce((n, o) => n + o.size, 0), objects: objects.length };
}

async function googleRequests(): Promise<string[]> {
  return (await fetch("https://fonts.gstatic.com/__requests")).json();
}

interface Listed {
  path: string;
  size: number;
}

async function renderFiles(key: string, token: string, slug: string): Promise<{ jobId: string; files: Listed[] }> {
  expect((await api(token, "POST", `/api/projects/${slug}/render`, { format: "mp4", quality: "draft" })).status).toBe(202);
  const job = await claim(key);
  const { files } = await json<{ files: Listed[] }>(await nodeCall(key, "GET", `/jobs/${job!.id}/files`));
  await nodeCall(key, "POST", `/jobs/${job!.id}/complete`, { ok: false, error: "test done" });
  return { jobId: job!.id, files };
}

describe("Google Fonts for render jobs", () => {
  it("fetches a linked stylesheet and its fonts once, caches them in R2, and ships local copies with the job", async () => {
    const key = await registerNode("fonts-node");
    const s = await signIn("fonts-user");
    await createProject(s.token, "Typeset");
    await api(s.token, "PUT", "/api/projects/typeset/files/index.html", page(`<link href="${LINK.replace(/&/g, "&amp;")}" rel="stylesheet">`));
    await googleRequests();

    const first = await renderFiles(key, s.token, "typeset");
    const fontFiles = first.files.filter((f) => f.path.startsWith("__studio/fonts/google/"));
    // One stylesheet, four font files (two families × two subsets).
    expect(fontFiles.filter((f) => f.path.endsWith(".css"))).toHaveLength(1);
    expect(fontFiles.filter((f) => /^__studio\/fonts\/google\/files\/[0-9a-f]{32}\.woff2$/.test(f.path))).toHaveLength(4);
    const fetched = await googleRequests();
    expect(fetched.filter((r) => r.startsWith("fonts.googleapis.com/css2"))).toHaveLength(1);
    expect(fetched.filter((r) => r.startsWith("fonts.gstatic.com/s/"))).toHaveLength(4);

    // The node reads the stylesheet with local font URLs, and each font file's bytes, from the job's files.
    const again = await api(s.token, "POST", "/api/projects/typeset/render", { format: "mp4", quality: "draft" });
    expect(again.status).toBe(202);
    const job = await claim(key);
    const listing = await json<{ files: Listed[] }>(await nodeCall(key, "GET", `/jobs/${job!.id}/files`));
    expect(listing.files.map((f) => f.path).sort()).toEqual(first.files.map((f) => f.path).sort());
    const cssPath = fontFiles.find((f) => f.path.endsWith(".css"))!.path;
    const css = await (await nodeCall(key, "GET", `/jobs/${job!.id}/files/${cssPath}`)).text();
    expect(css).toContain("font-family: 'Rubik Mono One'");
    expect(css).not.toContain("gstatic");
    // Font URLs relative to the stylesheet, which the node serves at /__studio/fonts/google/.
    const fontUrls = [...css.matchAll(/url\((files\/[0-9a-f]{32}\.woff2)\)/g)].map((m) => `__studio/fonts/google/${m[1]!}`);
    expect(fontUrls).toHaveLength(4);
    const bytes = await (await nodeCall(key, "GET", `/jobs/${job!.id}/files/${fontUrls[0]}`)).text();
    expect(bytes).toMatch(/^wOF2\/s\/(rubik-mono-one|bungee)\/v1\/latin(-ext)?\.woff2$/);
    // The second render was served from R2: Google was not asked again.
    expect(await googleRequests()).toEqual([]);
    // Kept in the project's own reserved folder, counted in its owner's storage.
    expect((await env.FILES.list({ prefix: `p/${s.userId}/typeset/__studio/fonts/google/` })).objects).toHaveLength(5);
    expect(await storageOf(s.token)).toEqual(await inR2(s.userId));
    await nodeCall(key, "POST", `/jobs/${job!.id}/complete`, { ok: false, error: "test done" });
  });

  it("leaves out a stylesheet Google refuses, and never serves project files or other keys through the reserved folder", async () => {
    const key = await registerNode("fonts-node-2");
    const s = await signIn("fonts-user-2");
    await createProject(s.token, "Unknown");
    await api(s.token, "PUT", "/api/projects/unknown/files/index.html", page(`<style>@import url("https://fonts.googleapis.com/css2?family=Nope+Sans");</style>`));
    await api(s.token, "PUT", "/api/projects/unknown/files/__studio/fonts/google/planted.css", "body{}");
    const { files } = await renderFiles(key, s.token, "unknown");
    expect(files.map((f) => f.path).filter((p) => p.startsWith("__studio/"))).toEqual([]);
    expect(await googleRequests()).toEqual(["fonts.googleapis.com/css2?family=Nope+Sans"]);

    expect((await api(s.token, "POST", "/api/projects/unknown/render", { format: "mp4", quality: "draft" })).status).toBe(202);
    const job = await claim(key);
    // Google's refusal was remembered: the second job's listing did not ask again.
    expect((await json<{ files: Listed[] }>(await nodeCall(key, "GET", `/jobs/${job!.id}/files`))).files.some((f) => f.path.startsWith("__studio/"))).toBe(false);
    expect(await googleRequests()).toEqual([]);
    expect((await nodeCall(key, "GET", `/jobs/${job!.id}/files/__studio/fonts/google/planted.css`)).status).toBe(404);
    expect((await nodeCall(key, "GET", `/jobs/${job!.id}/files/__studio/fonts/google/..%2Fx.css`)).status).toBeGreaterThanOrEqual(400);
    await nodeCall(key, "POST", `/jobs/${job!.id}/complete`, { ok: false, error: "test done" });
  });
});

describe("fonts on the /play page (content origin)", () => {
  it("points Google links at the cached copies and draws bundled families (and generics) from the same cache", async () => {
    const s = await signIn("fonts-play");
    await createProject(s.token, "Played");
    const css = `<style>[data-composition-id="main"] { font-family: sans-serif; } h1 { font-family: "Bebas Neue"; }</style>`;
    await api(s.token, "PUT", "/api/projects/played/files/index.html", page(`<link href="${LINK.replace(/&/g, "&amp;")}" rel="stylesheet">${css}`));
    await googleRequests();
    const { contentUrl } = await json<{ contentUrl: string }>(await api(s.token, "GET", "/api/projects/played"));
    const html = await (await SELF.fetch(contentUrl)).text();
    expect(html).not.toContain("fonts.googleapis.com");
    // Relative to the page: the project's own files under its capability.
    const linked = /<link rel="stylesheet" href="(__studio\/fonts\/google\/[0-9a-f]{32}\.css)">/.exec(html)?.[1];
    expect(linked).toBeDefined();
    // Generic first families lead with Inter; Inter and the Bebas Neue alias (League Gothic) come as @font-face.
    expect(html).toContain("font-family: Inter, sans-serif;");
    expect(html).toContain('font-family: "Inter"');
    expect(html).toContain('font-family: "bebas neue"');
    const fontUrl = /url\((__studio\/fonts\/google\/files\/[0-9a-f]{32}\.woff2)\)/.exec(html)![1]!;
    const font = await SELF.fetch(new URL(fontUrl, contentUrl));
    expect(font.status).toBe(200);
    expect(font.headers.get("Content-Type")).toBe("font/woff2");
    expect(await font.text()).toMatch(/^wOF2\/s\/(inter|league-gothic)\//);
    const sheet = await SELF.fetch(new URL(linked!, contentUrl));
    expect(sheet.headers.get("Content-Type")).toMatch(/^text\/css/);
    const sheetText = await sheet.text();
    expect(sheetText).toContain("font-family: 'Bungee'");
    // The stylesheet's font URLs resolve next to it, inside the same capability.
    const inSheet = /url\((files\/[0-9a-f]{32}\.woff2)\)/.exec(sheetText)![1]!;
    expect((await SELF.fetch(new URL(inSheet, new URL(linked!, contentUrl)))).status).toBe(200);
    // Second view: all from R2.
    await googleRequests();
    await (await SELF.fetch(contentUrl)).text();
    expect(await googleRequests()).toEqual([]);
    expect((await SELF.fetch(`${new URL(contentUrl).origin}/__studio/fonts/google/../p/x`)).status).toBeGreaterThanOrEqual(300);
  });
});

describe("Google Fonts are the project owner's", () => {
  it("fetches at most 10 linked stylesheets for a /play page, stored in the project and counted in the owner's quota", async () => {
    const s = await signIn("fonts-cap");
    await createProject(s.token, "Many Links");
    // Twelve different stylesheet URLs (Google knows the family; each URL is its own stylesheet).
    const links = Array.from({ length: 12 }, (_, i) => `<link href="https://fonts.googleapis.com/css2?family=Bungee&amp;text=${i}" rel="stylesheet">`).join("");
    await api(s.token, "PUT", "/api/projects/many-links/files/index.html", page(links));
    await googleRequests();
    const { contentUrl } = await json<{ contentUrl: string }>(await api(s.token, "GET", "/api/projects/many-links"));
    expect((await SELF.fetch(contentUrl)).status).toBe(200);
    const linked = (await googleRequests()).filter((r) => r.includes("family=Bungee"));
    expect(linked).toHaveLength(10);
    const cached = (await env.FILES.list({ prefix: `p/${s.userId}/many-links/__studio/fonts/google/` })).objects;
    expect(cached.filter((o) => o.key.endsWith(".css"))).toHaveLength(10 + 1); // and Inter, for the generic family
    expect(await storageOf(s.token)).toEqual(await inR2(s.userId));
    // Deleting the project takes its fonts with it.
    expect((await api(s.token, "DELETE", "/api/projects/many-links")).status).toBe(200);
    expect((await env.FILES.list({ prefix: `p/${s.userId}/many-links/` })).objects).toEqual([]);
    expect(await storageOf(s.token)).toEqual({ bytes: 0, objects: 0 });
  });

  it("stores no fonts past the owner's quota: the page still plays, its fonts fall back, nothing is stored", async () => {
    const restore = setEnv({ MAX_STORED_FILES: "5" });
    try {
      const s = await signIn("fonts-full");
      await createProject(s.token, "Full Fonts"); // 4 objects
      await api(s.token, "PUT", "/api/projects/full-fonts/files/index.html", page(`<link href="${LINK.replace(/&/g, "&amp;")}" rel="stylesheet">`));
      expect((await api(s.token, "PUT", "/api/projects/full-fonts/files/filler.txt", "x")).status).toBe(200); // 5 of 5
      const { contentUrl } = await json<{ contentUrl: string }>(await api(s.token, "GET", "/api/projects/full-fonts"));
      const play = await SELF.fetch(contentUrl);
      expect(play.status).toBe(200);
      expect(await play.text()).not.toContain("__studio/fonts/google/");
      expect((await env.FILES.list({ prefix: `p/${s.userId}/full-fonts/__studio/` })).objects).toEqual([]);
      expect(await storageOf(s.token)).toEqual({ bytes: (await inR2(s.userId)).bytes, objects: 5 });
    } finally {
      restore();
    }
  });
});
