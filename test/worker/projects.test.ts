import { describe, expect, it } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";

type Entry = { path: string; size: number; mtime: string; type: string };

describe("projects", () => {
  it("creates a starter project with index.html, meta.json, hyperframes.json and an empty assets/ directory", async () => {
    const s = await signIn("proj-starter");
    const res = await api(s.token, "POST", "/api/projects", { name: "My First Video", createdBy: "agent-007" });
    expect(res.status).toBe(201);
    const body = await json<{ created: boolean; slug: string; project: Record<string, unknown>; files: Entry[] }>(res);
    expect(body.created).toBe(true);
    expect(body.slug).toBe("my-first-video");
    expect(body.project).toMatchObject({
      name: "my-first-video",
      displayName: "My First Video",
      compositionId: "my-first-video",
      duration: 6,
      preview: { running: false },
      render: null,
      createdBy: "agent-007",
    });
    expect(new Date(body.project.createdAt as string).toISOString()).toBe(body.project.createdAt);
    const paths = body.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["index.html", "meta.json", "hyperframes.json", "assets"]));
    expect(body.files.find((f) => f.path === "assets")?.type).toBe("directory");

    const meta = await json(await api(s.token, "GET", "/api/projects/my-first-video/files/meta.json"));
    expect(meta).toMatchObject({ id: "my-first-video", name: "My First Video" });
    const html = await (await api(s.token, "GET", "/api/projects/my-first-video/files/index.html")).text();
    expect(html).toContain('data-composition-id="my-first-video"');
    expect(html).toContain('data-duration="6"');
  });

  it("writes a starter of the requested duration, or the given html and files", async () => {
    const s = await signIn("proj-custom");
    const ten = await json<{ project: { duration: number } }>(await api(s.token, "POST", "/api/projects", { name: "ten", duration: 10 }));
    expect(ten.project.duration).toBe(10);
    const html = '<div data-composition-id="custom-id" data-start="0" data-duration="3.5" data-width="1920" data-height="1080"></div>';
    const res = await api(s.token, "POST", "/api/projects", {
      name: "Custom",
      html,
      files: { "compositions/intro.html": "<p>intro</p>", "assets/readme.txt": "hello" },
    });
    expect(res.status).toBe(201);
    const body = await json<{ project: { compositionId: string; duration: number } }>(res);
    expect(body.project).toMatchObject({ compositionId: "custom-id", duration: 3.5 });
    expect(await (await api(s.token, "GET", "/api/projects/custom/files/index.html")).text()).toBe(html);
    expect(await (await api(s.token, "GET", "/api/projects/custom/files/compositions/intro.html")).text()).toBe("<p>intro</p>");
  });

  it("answers 409 for a slug that exists and leaves the first project as it was", async () => {
    const s = await signIn("proj-409");
    await createProject(s.token, "Twice", { html: "<p>first</p>" });
    const again = await api(s.token, "POST", "/api/projects", { name: "twice", html: "<p>second</p>" });
    expect(again.status).toBe(409);
    expect((await json<{ error: string }>(again)).error).toMatch(/already exists/);
    expect(await (await api(s.token, "GET", "/api/projects/twice/files/index.html")).text()).toBe("<p>first</p>");
  });

  it("rejects malformed and mistyped create bodies with 400 and writes nothing", async () => {
    const s = await signIn("proj-bad");
    const bad: unknown[] = [
      "{oops",
      [],
      { name: 5 },
      { name: "" },
      { name: "!!!" },
      { name: "ok", duration: -1 },
      { name: "ok", duration: "6" },
      { name: "ok", html: 7 },
      { name: "ok", files: { "../escape.html": "x" } },
      { name: "ok", files: { "a.txt": 3 } },
      { name: "ok", html: "<p/>", files: { "index.html": "<p/>" } },
    ];
    for (const body of bad) {
      const res = await api(s.token, "POST", "/api/projects", typeof body === "string" ? body : body, { "Content-Type": "application/json" });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof (await json<{ error: string }>(res)).error).toBe("string");
    }
    const list = await json<{ projects: unknown[] }>(await api(s.token, "GET", "/api/projects"));
    expect(list.projects).toEqual([]);
  });

  it("gets a project with meta and files, lists only the caller's projects, and deletes the whole folder", async () => {
    const s = await signIn("proj-crud");
    await createProject(s.token, "Alpha");
    await createProject(s.token, "Beta");
    await api(s.token, "PUT", "/api/projects/alpha/files/assets/deep/a.txt", "A");
    const detail = await json<{ project: { name: string }; meta: { id: string }; files: Entry[] }>(
      await api(s.token, "GET", "/api/projects/alpha"),
    );
    expect(detail.project.name).toBe("alpha");
    expect(detail.meta.id).toBe("alpha");
    expect(detail.files.map((f) => f.path)).toContain("assets/deep/a.txt");
    const list = await json<{ projects: { name: string }[] }>(await api(s.token, "GET", "/api/projects"));
    expect(list.projects.map((p) => p.name).sort()).toEqual(["alpha", "beta"]);

    const del = await api(s.token, "DELETE", "/api/projects/alpha");
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ deleted: true, slug: "alpha" });
    expect((await api(s.token, "GET", "/api/projects/alpha")).status).toBe(404);
    // Re-creating the slug starts from a clean folder: nothing of the old project survives.
    await createProject(s.token, "Alpha");
    const files = await json<{ files: Entry[] }>(await api(s.token, "GET", "/api/projects/alpha/files"));
    expect(files.files.map((f) => f.path)).not.toContain("assets/deep/a.txt");
    expect((await api(s.token, "DELETE", "/api/projects/nope")).status).toBe(404);
  });

  it("keeps the summary's duration and composition id in step with index.html", async () => {
    const s = await signIn("proj-sync");
    await createProject(s.token, "Sync");
    const html = '<div data-composition-id="sync" data-start="0" data-duration="12" data-width="1920" data-height="1080"></div>';
    await api(s.token, "PUT", "/api/projects/sync/files/index.html", html);
    const detail = await json<{ project: { duration: number } }>(await api(s.token, "GET", "/api/projects/sync"));
    expect(detail.project.duration).toBe(12);
  });
});
