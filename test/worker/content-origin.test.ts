// User content on its own origin: routing by host both ways, cookies ignored on the content host, the content
// origin's headers, /play/<slug> as a redirect to a capability link, and active files as sandboxed downloads on
// the API origin. (The links themselves: capability-links.test.ts.)
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { projectLink } from "../../worker/capabilities/content-links.ts";
import { openDb } from "../../worker/db/client.ts";
import { api, BASE, createProject, json, signIn } from "./helpers.ts";
import { capabilityOf, claimsOf, CONTENT, detail, get, projectId, tamper } from "./content-helpers.ts";

describe("routing by host", () => {
  it("sends the API's and the dashboard's paths from the content host to the API origin, and refuses writes there", async () => {
    const s = await signIn("content-routing");
    for (const path of ["/", "/api/me", "/api/projects?x=1", "/project?slug=a", "/auth/github", "/renders/x.mp4", "/play/a"]) {
      const res = await get(`${CONTENT}${path}`, { Cookie: s.cookie, Authorization: `Bearer ${s.token}` });
      expect(res.status, path).toBe(302);
      expect(res.headers.get("Location"), path).toBe(`${BASE}${path}`);
      expect(res.headers.get("Set-Cookie")).toBeNull();
    }
    for (const [method, path] of [["POST", "/api/projects"], ["POST", "/auth/dev/login"], ["POST", "/api/me/token/rotate"], ["DELETE", "/api/projects/x"], ["PUT", "/api/projects/x/files/a.txt"]] as const) {
      const res = await SELF.fetch(`${CONTENT}${path}`, {
        method,
        headers: { Cookie: s.cookie, Authorization: `Bearer ${s.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "sneaky" }),
        redirect: "manual",
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await json<{ error: string }>(res)).error).toContain(BASE);
      expect(res.headers.get("Set-Cookie")).toBeNull();
    }
    expect((await json<{ projects: unknown[] }>(await api(s.token, "GET", "/api/projects"))).projects).toEqual([]);
    expect((await api(s.token, "GET", "/api/me")).status).toBe(200);
  });

  it("sends content paths from the API host to the content origin", async () => {
    for (const [path, target] of [
      ["/c/abc.def/", "/c/abc.def/"],
      ["/c/abc.def/assets/a.png?v=1", "/c/abc.def/assets/a.png?v=1"],
      ["/_studio/runtime.js", "/_studio/runtime.js"],
      ["/play/_studio/gsap/gsap.min.js", "/_studio/gsap/gsap.min.js"],
    ]) {
      const res = await get(`${BASE}${path}`);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("Location")).toBe(`${CONTENT}${target}`);
    }
  });
});

describe("/play/<slug> on the API origin", () => {
  it("redirects a signed-in person (cookie or header token) to a one-hour capability link on the content origin", async () => {
    const s = await signIn("content-play");
    await createProject(s.token, "Playable");
    for (const headers of [{ Cookie: s.cookie }, { Authorization: `Bearer ${s.token}` }, { "X-Studio-Token": s.token }] as Record<string, string>[]) {
      const before = Date.now();
      const res = await get(`${BASE}/play/playable`, headers);
      expect(res.status).toBe(302);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      const location = res.headers.get("Location")!;
      expect(location).toMatch(new RegExp(`^${CONTENT}/c/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+/$`));
      expect(location).not.toContain(s.token);
      const claims = (await claimsOf(capabilityOf(location)))!;
      expect(claims).toMatchObject({ kind: "project", userId: s.userId, id: await projectId(s.userId, "playable") });
      expect(claims.expiresAt * 1000 - before).toBeGreaterThan(3_590_000);
      expect(claims.expiresAt * 1000 - before).toBeLessThanOrEqual(3_601_000);
    }
  });

  it("treats ?token= as no sign-in at all: a 401 page, no link", async () => {
    const s = await signIn("content-play-query");
    await createProject(s.token, "Linked");
    for (const url of [`${BASE}/play/linked?token=${s.token}`, `${BASE}/play/linked`]) {
      const res = await get(url);
      expect(res.status).toBe(401);
      expect(res.headers.get("Location")).toBeNull();
      expect(res.headers.get("Content-Type")).toContain("text/html");
      const page = await res.text();
      expect(page).toContain(`href="${BASE}/"`);
      expect(page).not.toContain("/c/");
    }
    // The JSON API still takes ?token=, as the spec says.
    expect((await get(`${BASE}/api/projects/linked?token=${s.token}`)).status).toBe(200);
  });

  it("answers 404 for a project that is not the caller's", async () => {
    const owner = await signIn("content-owner");
    await createProject(owner.token, "Owned");
    const other = await signIn("content-other");
    const res = await get(`${BASE}/play/owned`, { Cookie: other.cookie });
    expect(res.status).toBe(404);
    expect(res.headers.get("Location")).toBeNull();
  });
});

describe("the content origin", () => {
  it("plays the project at its capability link with scripts from the content origin, and serves its files there", async () => {
    const s = await signIn("content-serve");
    await createProject(s.token, "Shown");
    await api(s.token, "PUT", "/api/projects/shown/files/compositions/sub.html", "<template><div data-composition-id=\"sub\"></div></template>");
    await api(s.token, "PUT", "/api/projects/shown/files/assets/bytes.bin", new Uint8Array(100).map((_, i) => i));
    const { contentUrl, contentExpiresAt } = await detail(s.token, "shown");
    expect(contentUrl).toMatch(new RegExp(`^${CONTENT}/c/[^/]+/$`));
    expect(Date.parse(contentExpiresAt) - Date.now()).toBeGreaterThan(3_500_000);

    // The project list carries the same kind of link, for thumbnails.
    const listed = await json<{ projects: { name: string; contentUrl: string }[] }>(await api(s.token, "GET", "/api/projects"));
    const entry = listed.projects.find((p) => p.name === "shown")!;
    expect(await claimsOf(capabilityOf(entry.contentUrl))).toMatchObject({ kind: "project", id: await projectId(s.userId, "shown") });
    expect((await get(`${entry.contentUrl}assets/bytes.bin`)).status).toBe(200);

    const page = await get(contentUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-composition-id="shown"');
    expect(html).toContain('src="/_studio/runtime.js" data-mode="play"');
    expect(html).toContain('src="/_studio/player.js"');
    expect(html).not.toContain("<base");
    expect(html).not.toContain("cdn.jsdelivr.net");
    expect(html).toContain("/_studio/gsap/3.14.2/gsap.min.js");
    const gsap = await get(`${CONTENT}/_studio/gsap/3.14.2/gsap.min.js`);
    expect(gsap.headers.get("Content-Type")).toContain("javascript");
    expect(await gsap.text()).toContain("3.14.2");
    expect(await (await get(`${CONTENT}/_studio/runtime.js`)).text()).toContain("studioRuntime");
    expect(await (await get(`${CONTENT}/_studio/player.js`)).text()).toContain("studioPlayer");

    const sub = await get(`${contentUrl}compositions/sub.html`);
    expect(sub.status).toBe(200);
    expect(sub.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const part = await get(`${contentUrl}assets/bytes.bin`, { Range: "bytes=10-19" });
    expect(part.status).toBe(206);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(new Uint8Array(10).map((_, i) => i + 10));
    const download = await get(`${contentUrl}assets/bytes.bin?download`);
    expect(download.headers.get("Content-Disposition")).toMatch(/^attachment; filename="bytes.bin"/);
    // A page may ask for its own files with any query (a cache-buster): the same file, inline.
    const busted = await get(`${contentUrl}assets/bytes.bin?v=2`);
    expect(busted.status).toBe(200);
    expect(busted.headers.get("Content-Disposition") ?? "").not.toMatch(/^attachment/);
    expect(new Uint8Array(await busted.arrayBuffer())).toEqual(new Uint8Array(await (await get(`${contentUrl}assets/bytes.bin`)).arrayBuffer()));
    const missing = await get(`${contentUrl}assets/none.png`);
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ error: "no file assets/none.png in project shown", code: "not_found" });
    expect((await get(`${contentUrl}assets/%252e%252e/x`)).status).toBe(400);
    // A sandboxed page (origin "null") may fetch with Range: the preflight allows it.
    const preflight = await SELF.fetch(`${contentUrl}assets/bytes.bin`, {
      method: "OPTIONS",
      headers: { Origin: "null", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "range" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("Range");
    // Without its trailing slash the link still lands on the page.
    const bare = await get(contentUrl.slice(0, -1));
    expect(bare.status).toBe(301);
    expect(new URL(bare.headers.get("Location")!, contentUrl).href).toBe(contentUrl);
  });

  it("sends every response sandboxed (opaque origin), nosniff, no-referrer, private, open to fetch, and never sets a cookie", async () => {
    const s = await signIn("content-headers");
    await createProject(s.token, "Headed");
    const { contentUrl } = await detail(s.token, "headed");
    const responses = {
      page: await get(contentUrl, { Cookie: s.cookie }),
      file: await get(`${contentUrl}index.html`, { Cookie: s.cookie }),
      missing: await get(`${contentUrl}nope.txt`),
      script: await get(`${CONTENT}/_studio/runtime.js`),
      invalid: await get(`${CONTENT}/c/forged.link/`),
      redirect: await get(`${CONTENT}/api/me`, { Cookie: s.cookie }),
    };
    for (const [name, res] of Object.entries(responses)) {
      const csp = res.headers.get("Content-Security-Policy") ?? "";
      expect(csp, name).toMatch(/^sandbox allow-scripts;/);
      expect(csp, name).not.toContain("allow-same-origin");
      expect(csp, name).not.toContain("allow-forms");
      expect(csp, name).not.toContain("allow-top-navigation");
      expect(csp, name).not.toContain("allow-popups");
      expect(csp, name).toContain(`connect-src ${CONTENT} data: blob:`);
      expect(csp, name).toContain("default-src 'none'");
      expect(csp, name).toContain("form-action 'none'");
      expect(csp, name).not.toContain(BASE);
      expect(csp, name).not.toContain("*");
      expect(res.headers.get("X-Content-Type-Options"), name).toBe("nosniff");
      expect(res.headers.get("Referrer-Policy"), name).toBe("no-referrer");
      expect(res.headers.get("Cache-Control"), name).toMatch(/\bprivate\b/);
      expect(res.headers.get("Access-Control-Allow-Origin"), name).toBe("*");
      expect(res.headers.get("Set-Cookie"), name).toBeNull();
    }
  });

  it("ignores cookies and tokens entirely: a link serves its owner's project whoever opens it, and nothing else", async () => {
    const owner = await signIn("content-link-owner");
    await createProject(owner.token, "Same Name", { html: "<div data-composition-id=\"same-name\" data-width=\"10\" data-height=\"10\">OWNER</div>" });
    const visitor = await signIn("content-link-visitor");
    await createProject(visitor.token, "Same Name", { html: "<div data-composition-id=\"same-name\" data-width=\"10\" data-height=\"10\">VISITOR</div>" });
    const { contentUrl } = await detail(owner.token, "same-name");
    for (const headers of [{}, { Cookie: visitor.cookie }, { Authorization: `Bearer ${visitor.token}` }, { Cookie: owner.cookie }] as Record<string, string>[]) {
      const res = await get(`${contentUrl}index.html?token=${visitor.token}`, headers);
      expect(await res.text()).toContain("OWNER");
    }
    // The visitor's own session grants nothing on the content host: no play page, no files, no listing.
    for (const path of ["/play/same-name", "/api/projects/same-name/files/index.html", "/c/", "/c//index.html"]) {
      const res = await get(`${CONTENT}${path}`, { Cookie: visitor.cookie });
      expect(res.status, path).not.toBe(200);
      expect(await res.text(), path).not.toContain("VISITOR");
    }
  });

  it("answers 403 for forged, tampered, other users' and other projects' capabilities, and for expired ones", async () => {
    const a = await signIn("content-cap-a");
    await createProject(a.token, "Alpha", { files: { "secret.txt": "alpha secret" } });
    await createProject(a.token, "Beta", { files: { "secret.txt": "beta secret" } });
    const b = await signIn("content-cap-b");
    await createProject(b.token, "Gamma", { files: { "secret.txt": "gamma secret" } });
    const alpha = capabilityOf((await detail(a.token, "alpha")).contentUrl);
    const gamma = capabilityOf((await detail(b.token, "gamma")).contentUrl);
    expect(await (await get(`${CONTENT}/c/${alpha}/secret.txt`)).text()).toBe("alpha secret");

    const forged = [
      await tamper(alpha, { id: await projectId(a.userId, "beta") }), // alpha's MAC on beta's id
      await tamper(gamma, { id: await projectId(a.userId, "alpha"), u: a.userId }), // b's MAC on a's project
      await tamper(alpha, { e: Math.floor(Date.now() / 1000) + 10 * 365 * 86400 }), // a longer life
      `${alpha.split(".")[0]}.${gamma.split(".")[1]}`,
      "not-a-capability",
      `${alpha}x`,
    ];
    for (const capability of forged) {
      const file = await get(`${CONTENT}/c/${capability}/secret.txt`);
      expect(file.status, capability).toBe(403);
      const body = await json<{ error: string }>(file);
      expect(body.error).toMatch(/^invalid link/);
      const page = await get(`${CONTENT}/c/${capability}/`);
      expect(page.status).toBe(403);
      expect(page.headers.get("Content-Type")).toContain("text/html");
      expect(await page.text()).not.toContain("secret");
    }

    const db = openDb(env.DB);
    const row = { userId: a.userId, id: await projectId(a.userId, "alpha") };
    const expired = await projectLink(env, db, row, 60, Date.now() - 61_000);
    const res = await get(`${expired.url}secret.txt`);
    expect(res.status).toBe(403);
    expect((await json<{ error: string }>(res)).error).toMatch(/expired/);
    const stillFresh = await projectLink(env, db, row, 60, Date.now() - 50_000);
    expect(await (await get(`${stillFresh.url}secret.txt`)).text()).toBe("alpha secret");
  });

  it("stops every link when its owner rotates their token, and when the project is deleted and made again", async () => {
    const s = await signIn("content-revoke");
    await createProject(s.token, "Revoked", { files: { "a.txt": "one" } });
    const before = (await detail(s.token, "revoked")).contentUrl;
    expect((await get(`${before}a.txt`)).status).toBe(200);
    const rotated = await json<{ token: string }>(await api(s.token, "POST", "/api/me/token/rotate"));
    expect((await get(`${before}a.txt`)).status).toBe(403);
    const after = (await detail(rotated.token, "revoked")).contentUrl;
    expect(await (await get(`${after}a.txt`)).text()).toBe("one");

    expect((await api(rotated.token, "DELETE", "/api/projects/revoked")).status).toBe(200);
    expect((await get(`${after}a.txt`)).status).toBe(403);
    await createProject(rotated.token, "Revoked", { files: { "a.txt": "two" } });
    expect((await get(`${after}a.txt`)).status).toBe(403);
  });
});

describe("project files on the API origin", () => {
  it("sends anything a browser could run as a sandboxed attachment, and media inline, all with nosniff", async () => {
    const s = await signIn("content-active");
    await createProject(s.token, "Files");
    const files: Record<string, string> = {
      "page.html": "<script>alert(1)</script>",
      "logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
      "app.js": "alert(1)",
      "mod.mjs": "alert(1)",
      "data.xml": "<x/>",
      "doc.pdf": "%PDF-1.4",
      "blob.weird": "<html><script>alert(1)</script>",
      "noext": "<html><script>alert(1)</script>",
      "shot.png": "\x89PNG",
      "meta2.json": "{}",
      "notes.txt": "<script>alert(1)</script>",
      "style.css": "body{}",
      "clip.mp4": "....",
      "font.woff2": "....",
    };
    for (const [path, body] of Object.entries(files)) expect((await api(s.token, "PUT", `/api/projects/files/files/${path}`, body)).status).toBe(200);
    const active = ["page.html", "logo.svg", "app.js", "mod.mjs", "data.xml", "doc.pdf", "blob.weird", "noext", "index.html"];
    for (const path of active) {
      for (const url of [`/api/projects/files/files/${path}`, `/api/projects/files/files/${path}?token=${s.token}`]) {
        const res = url.includes("?token=") ? await get(`${BASE}${url}`) : await api(s.token, "GET", url);
        expect(res.status, url).toBe(200);
        expect(res.headers.get("Content-Disposition"), url).toMatch(new RegExp(`^attachment; filename="${path}"`));
        expect(res.headers.get("Content-Security-Policy"), url).toMatch(/^sandbox\b/);
        expect(res.headers.get("X-Content-Type-Options"), url).toBe("nosniff");
      }
    }
    // The bytes are still exactly the file, for agents and the dashboard's editor.
    expect(await (await api(s.token, "GET", "/api/projects/files/files/page.html")).text()).toBe(files["page.html"]);
    for (const path of ["shot.png", "meta2.json", "notes.txt", "style.css", "clip.mp4", "font.woff2"]) {
      const res = await api(s.token, "GET", `/api/projects/files/files/${path}`);
      expect(res.headers.get("Content-Disposition"), path).toBeNull();
      // Inline, under the API origin's deny-all CSP (harmless for media, which a page embeds), never sandboxed away.
      expect(res.headers.get("Content-Security-Policy"), path).not.toContain("sandbox");
      expect(res.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
    }
  });
});
