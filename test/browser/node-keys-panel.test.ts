// The dashboard's Render nodes panel in headless Chromium against the real Worker: an admin makes a key (shown
// once), sees the node that uses it, revokes it and the node is refused; a non-admin sees no panel.
import { rm } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { preparedDataDir } from "../studio-data.ts";
import { seedDevUser } from "../node/seed-user.ts";
import { freePort, launchBrowser, watchConsole } from "./harness.ts";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

let dataDir = "";
let studio: RunningStudio;
let browser: Browser;
const problems: string[][] = [];

async function signIn(page: Page, name: string) {
  await page.goto(`${studio.url}/`);
  await page.getByLabel("Development sign-in: your name").fill(name);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: `Welcome, ${name}` }).waitFor();
}

const claim = (key: string) =>
  fetch(`${studio.url}/api/node/jobs/claim?wait=0`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ nodeId: "panel-node", kinds: ["render"] }),
  });

beforeAll(async () => {
  dataDir = await preparedDataDir(await mkdtemp(join(tmpdir(), "studio-node-panel-")));
  // Admins are user ids: the admin is written into the data folder first, so the one studio starts naming them.
  const admin = await seedDevUser(dataDir, "Nora Admin");
  studio = await startStudio({ port: await freePort(), dataDir, prepared: true, renderNode: false, vars: { ADMIN_USER_IDS: admin } });
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await studio?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("Render nodes panel", () => {
  it("an admin makes a key, shown once; the node shows online; revoking it refuses the node", async () => {
    const page = await (await browser.newContext()).newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    problems.push(watchConsole(page));
    await signIn(page, "Nora Admin");
    const panel = page.getByTestId("node-keys");
    await panel.getByRole("heading", { name: "Render nodes" }).waitFor();
    await panel.getByLabel("Node name").fill("panel-node");
    await panel.getByRole("button", { name: "Create key" }).click();
    const key = (await panel.getByTestId("node-key").textContent()) ?? "";
    expect(key).toMatch(/^stn_[\w-]{43}$/);
    expect(await panel.locator("pre").textContent()).toBe(`STUDIO_URL=${studio.url} NODE_KEY=${key} npm run node`);
    expect([200, 204]).toContain((await claim(key)).status);

    // After a reload the key is gone from the page for good; the node is listed as online.
    await page.reload();
    const row = panel.getByRole("row", { name: /panel-node/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("online");
    expect(await page.content()).not.toContain(key);

    await row.getByRole("button", { name: "Revoke panel-node" }).click();
    await row.waitFor({ state: "detached" });
    expect((await claim(key)).status).toBe(401);
  });

  it("a user who is not an admin sees no panel", async () => {
    const page = await (await browser.newContext()).newPage();
    problems.push(watchConsole(page));
    await signIn(page, "Otto User");
    await page.getByRole("heading", { name: "Your API token" }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(await page.getByTestId("node-keys").count()).toBe(0);
    // Not even asked for (no 403 in the console): the panel is drawn from /api/health's admin flag.
    expect(await page.evaluate(async () => ((await (await fetch("/api/health")).json()) as { admin: boolean }).admin)).toBe(false);
  });

  it("logged no console errors", () => {
    expect(problems.flat()).toEqual([]);
  });
});
