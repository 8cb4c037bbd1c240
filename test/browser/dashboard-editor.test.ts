// The file editor (issue 14 point 2) in headless Chromium against the real Worker: CodeMirror loaded only when a
// file is opened, line numbers, the studio's linter running in the page as one types (an inline marker on the
// element it names), Ctrl-S saving byte for byte, a preview of the play page on the content origin at the time
// under the cursor, and snapshots kept out of the file tree (they have their own tab).
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiAs, launchBrowser, openPage, screenshotDir, shoot, signInAs } from "./harness.ts";
import { sharedStudio } from "../node/shared-studio.ts";

const COMPOSITION = `<!doctype html>
<html><head><meta charset="utf-8"><style>h1 { color: white; font: 48px sans-serif; }</style></head>
<body style="margin:0;background:#123">
<div id="root" data-composition-id="main" data-start="0" data-duration="4" data-width="640" data-height="360">
<h1 id="title" class="clip" data-start="0" data-duration="4">Hello</h1>
</div>
</body>
</html>
`;

const env = sharedStudio();
let browser: Browser;
let page: Page;
let shots: string;
let problems: string[];
let token = "";
const requested: string[] = [];
const slug = "editor-clip";
const agent = <T>(path: string, init: RequestInit = {}) => apiAs<T>(env.url, token, path, init);

beforeAll(async () => {
  shots = screenshotDir();
  browser = await launchBrowser();
  ({ page, problems } = await openPage(browser, { viewport: { width: 1400, height: 900 } }));
  page.on("request", (req) => requested.push(req.url()));
  token = await signInAs(page, env.url, "Edie Tor");
  expect((await agent("/api/projects", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: slug, duration: 4 }) })).status).toBe(201);
  expect((await agent(`/api/projects/${slug}/files/index.html`, { method: "PUT", body: COMPOSITION })).status).toBe(200);
  expect((await agent(`/api/projects/${slug}/files/snapshots/frame-1.png`, { method: "PUT", body: new Uint8Array([137, 80, 78, 71]) })).status).toBe(200);
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

describe("file editor", () => {
  it("keeps snapshots out of the file tree: they are a tab of their own", async () => {
    await page.goto(`${env.url}/project?slug=${slug}`);
    const files = page.getByTestId("files");
    await files.getByText("index.html", { exact: true }).waitFor();
    expect(await files.getByText(/snapshots/).count()).toBe(0);
    await page.getByRole("tab", { name: "Snapshots" }).click();
    expect(await page.getByTestId("snapshots").locator("img").count()).toBeGreaterThan(0);
    for (const name of ["Render", "Checks & preview", "Files"]) await page.getByRole("tab", { name }).waitFor();
    await page.getByRole("tab", { name: "Files" }).click();
    // The editor is a chunk of its own, fetched only when a file is opened.
    expect(requested.filter((u) => /\/assets\/(code-editor|lint-in-browser)-/.test(u))).toEqual([]);
  });

  it("opens CodeMirror with line numbers and marks a lint finding inline as one types", async () => {
    await page.getByRole("button", { name: "Edit index.html" }).click();
    const editor = page.getByTestId("code-editor");
    await editor.locator(".cm-content").waitFor();
    expect(requested.some((u) => /\/assets\/code-editor-.*\.js$/.test(u))).toBe(true);
    const numbers = await editor.locator(".cm-lineNumbers .cm-gutterElement").allTextContents();
    for (const n of ["1", "5", "8"]) expect(numbers).toContain(n);
    const lint = page.getByTestId("editor-lint");
    await lint.waitFor({ timeout: 15_000 });
    // The same findings the Worker's lint endpoint gives for this file.
    const server = await agent<{ result: { findings: { file: string; severity: string }[] } }>(`/api/projects/${slug}/lint`, { method: "POST" });
    const count = (severity: string) => server.body.result.findings.filter((f) => f.file === "index.html" && f.severity === severity).length;
    const [errors, warnings] = [count("error"), count("warning")];
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    await expect.poll(() => lint.textContent()).toBe(`${plural(errors, "error")}, ${plural(warnings, "warning")}`);

    // A second element with id="title", typed at the end of line 5: the linter (running in this page) warns.
    await editor.locator(".cm-line", { hasText: "Hello</h1>" }).click();
    await page.keyboard.press("End");
    // The HTML mode closes the tag as it is typed.
    await page.keyboard.type('<p id="title" data-start="2.5">Again');
    await expect.poll(() => lint.textContent(), { timeout: 10_000 }).toBe(`${plural(errors, "error")}, ${plural(warnings + 1, "warning")}`);
    // The marker sits on the element the finding names (the first id="title"), found in the text being edited,
    // and hovering it tells why.
    const marker = editor.locator(".cm-lintRange-warning", { hasText: 'id="title"' }).first();
    await marker.waitFor();
    expect(await marker.textContent()).toMatch(/^<h1 id="title"/);
    await marker.hover();
    await editor.locator(".cm-tooltip-lint").getByText('id="title" is used by 2 elements', { exact: false }).waitFor();
    await shoot(page, shots, "editor-01-lint-marker");
    // No request went to the lint endpoint: the findings came from the linter in the page.
    expect(requested.filter((u) => /^\/api\/projects\/[^/]+\/lint$/.test(new URL(u).pathname))).toEqual([]);
  });

  it("previews the play page at the time under the cursor, on the content origin", async () => {
    const frame = page.getByTestId("editor-preview");
    await expect.poll(() => frame.getAttribute("src")).toMatch(new RegExp(`^${env.contentUrl}/c/[^/]+/#t=2\\.5$`));
    const player = page.frames().find((f) => f.url().startsWith(env.contentUrl));
    expect(player).toBeTruthy();
    await player?.waitForSelector("html[data-studio-player-ready]", { state: "attached", timeout: 20_000 });
    await expect.poll(() => player?.locator("[data-studio-time]").textContent(), { timeout: 10_000 }).toMatch(/^2\.50 s/);
  });

  it("undoes and redoes, saves with Ctrl-S byte for byte, and the preview reloads with the saved page", async () => {
    // Plain typing keys work: End, Enter, a new line.
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("<!-- more -->");
    // Undo takes the typing back, redo brings it again (CodeMirror's history).
    const content = page.getByTestId("code-editor").locator(".cm-content");
    await page.keyboard.press("Control+z");
    await expect.poll(() => content.textContent()).not.toContain("<!-- more -->");
    await page.keyboard.press("Control+y");
    await expect.poll(() => content.textContent()).toContain("<!-- more -->");
    await page.keyboard.press("Control+s");
    await page.getByTestId("editor-state").getByText("Saved.").waitFor();
    const res = await fetch(`${env.url}/api/projects/${slug}/files/index.html`, { headers: { Authorization: `Bearer ${token}` } });
    const saved = await res.text();
    expect(saved).toBe(COMPOSITION.replace("Hello</h1>", 'Hello</h1><p id="title" data-start="2.5">Again</p>\n<!-- more -->'));
    // A new frame: the preview was reloaded, and shows the saved text.
    const frameHas = async (text: string) => {
      const player = page.frames().find((f) => f.url().startsWith(env.contentUrl));
      return (await player?.content().catch(() => ""))?.includes(text) ?? false;
    };
    await expect.poll(() => frameHas("Again"), { timeout: 20_000 }).toBe(true);
    await shoot(page, shots, "editor-02-saved-preview");
  });

  it("logged no console errors", () => {
    expect(problems).toEqual([]);
  });
});
