// `npm run deploy` as an operator runs it, from a fresh clone: the repository's files copied to a temp folder (no
// dashboard/dist, no .wrangler; node_modules linked), the real script and the real wrangler, with every proxy pointed
// at a closed port and no Cloudflare credentials, so anything reaching for the network fails. A real deploy refuses
// the shipped placeholders before building anything; the dry run builds the dashboard, bundles the Worker and prints
// the remote steps it would run. Its own folder, so the dashboard other test files serve is never rebuilt under them.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/wrangler.ts";

let clone = "";

beforeAll(async () => {
  clone = await mkdtemp(join(tmpdir(), "studio-clone-"));
  // What a clone of this working tree holds: tracked and new files, nothing ignored (dashboard/dist, .data, .wrangler).
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((file) => file && existsSync(join(ROOT, file)));
  await Promise.all(files.map((file) => cp(join(ROOT, file), join(clone, file), { recursive: true })));
  await symlink(await realpath(join(ROOT, "node_modules")), join(clone, "node_modules"));
});

afterAll(async () => {
  if (clone) await rm(clone, { recursive: true, force: true });
});

/** `npm run deploy -- ...args` in the clone, offline. */
function npmRunDeploy(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const offline = "http://127.0.0.1:9";
  const { CLOUDFLARE_API_TOKEN: _token, CLOUDFLARE_ACCOUNT_ID: _account, ...env } = process.env;
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "deploy", "--", ...args], {
      cwd: clone,
      env: {
        ...env,
        PATH: `${join(clone, "node_modules", ".bin")}:${process.env.PATH}`,
        HTTPS_PROXY: offline, HTTP_PROXY: offline, https_proxy: offline, http_proxy: offline,
        WRANGLER_SEND_METRICS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run deploy from a fresh clone", () => {
  it("refuses a real deploy of the shipped wrangler.toml, naming what to change, before building anything", async () => {
    const run = await npmRunDeploy(["--env", "production"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("wrangler.toml's [env.production] is not ready to deploy");
    expect(run.stderr).toContain("still has the placeholder database_id 00000000-0000-0000-0000-000000000000");
    expect(run.stderr).toContain("`npx wrangler d1 create studio`");
    expect(run.stderr).toContain("BASE_URL https://studio.example.com is an example domain");
    expect(run.stdout).not.toContain("Building the dashboard");
    expect(existsSync(join(clone, "dashboard", "dist"))).toBe(false);
  }, 60_000);

  it("dry-runs to the end offline: dashboard built, Worker bundled, remote steps printed", async () => {
    expect(existsSync(join(clone, "dashboard", "dist"))).toBe(false);
    const run = await npmRunDeploy(["--dry-run", "--env", "production"]);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(clone, "dashboard", "dist", "index.html"))).toBe(true);
    expect(run.stdout).toMatch(/Worker bundled: [\d.]+ KiB, [\d.]+ KiB gzip/);
    // The placeholders are listed (a real deploy refuses them), then the steps a deploy would run.
    expect(run.stdout).toContain("A real deploy refuses until these are changed");
    expect(run.stdout).toContain(
      "A deploy would now run:\n" +
        "  4. npx wrangler secret list --env production --format json   (checks that TOKEN_SECRET, CONTAINER_NODE_KEY are set)\n" +
        "  5. npx wrangler d1 migrations apply studio --remote --env production\n" +
        "  6. npx wrangler deploy --env production\n",
    );
    expect(run.stdout).toContain("curl -s https://studio.example.com/api/health");
  }, 180_000);

  it("asks for an environment", async () => {
    const run = await npmRunDeploy(["--dry-run"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--env names the wrangler.toml environment to deploy: production");
  }, 60_000);
});
