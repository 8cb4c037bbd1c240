// The command-line client (cli/studio.ts) run as a process against the real Worker (wrangler dev) and a real render
// node: login saving the token (0600) and refusing a wrong one; push of a HyperFrames-style folder (hyperframes.json
// names the project; text and binary files byte for byte; dot files and node_modules left out; a second push
// updates); lint (exit 0, and 1 with the findings on a broken composition); render with a progress bar from the
// event stream and the video downloaded; download by project and by file name; STUDIO_TOKEN without a saved login.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterComposition } from "../../core/composition/starter.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";
import { startSignedInStudio, type SignedInStudio } from "./signed-in-studio.ts";

let s: SignedInStudio;
let home = "";
let folder = "";

function studio(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "cli", "studio.ts"), ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0xff, 0xfe, 0x00, 0x01]);

beforeAll(async () => {
  s = await startSignedInStudio("e2e-cli");
  home = join(s.work, "home");
  folder = join(home, "launch-teaser");
  mkdirSync(join(folder, "assets"), { recursive: true });
  mkdirSync(join(folder, "node_modules", "x"), { recursive: true });
  mkdirSync(join(folder, ".git"), { recursive: true });
  writeFileSync(join(folder, "hyperframes.json"), JSON.stringify({ name: "CLI Teaser", entry: "index.html", width: 1920, height: 1080, fps: 30 }));
  writeFileSync(join(folder, "index.html"), starterComposition({ compositionId: "cli-teaser", title: "From the CLI", duration: 1 }));
  writeFileSync(join(folder, "assets", "notes.txt"), "notes");
  writeFileSync(join(folder, "assets", "pixel.png"), PNG);
  writeFileSync(join(folder, "node_modules", "x", "index.js"), "module.exports = 1");
  writeFileSync(join(folder, ".git", "HEAD"), "ref: refs/heads/main");
  writeFileSync(join(folder, ".env"), "SECRET=1");
}, 180_000);

afterAll(async () => {
  await s?.studio.stop();
});

describe("the studio CLI", () => {
  it("refuses a wrong token, then logs in and keeps the token readable only by the user", async () => {
    const wrong = await studio(["login", "--url", s.url, "--token", "stu_wrong"]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain("unauthorized");
    const ok = await studio(["login", "--url", s.url, "--token", s.token]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toContain("as e2e-cli");
    const config = join(home, ".config", "studio", "config.json");
    expect(JSON.parse(readFileSync(config, "utf8"))).toEqual({ url: s.url, token: s.token });
    expect(statSync(config).mode & 0o777).toBe(0o600);
    const whoami = (await studio(["whoami"])).out;
    expect(whoami).toContain("e2e-cli");
    // The storage line: this user has stored nothing yet, against the default quota.
    expect(whoami).toMatch(/^storage: 0 bytes of 5 GiB, 0 of 100000 files$/m);
  });

  it("pushes a HyperFrames project folder as it is, byte for byte, leaving out dot files and node_modules", async () => {
    const pushed = await studio(["push", folder]);
    expect(pushed.code, pushed.err).toBe(0);
    expect(pushed.out).toContain("created project cli-teaser");
    const listing = (await (await s.call("GET", "/api/projects/cli-teaser/files")).json()) as { files: Array<{ path: string }> };
    const paths = listing.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["index.html", "hyperframes.json", "assets/notes.txt", "assets/pixel.png"]));
    expect(paths.some((p) => p.includes("node_modules") || p.startsWith(".git") || p === ".env")).toBe(false);
    const png = Buffer.from(await (await s.call("GET", "/api/projects/cli-teaser/files/assets/pixel.png")).arrayBuffer());
    expect(png.equals(PNG)).toBe(true);
    expect(await (await s.call("GET", "/api/projects/cli-teaser/files/index.html")).text()).toBe(readFileSync(join(folder, "index.html"), "utf8"));
    writeFileSync(join(folder, "assets", "notes.txt"), "notes, edited");
    const again = await studio(["push", folder]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain("updating project cli-teaser");
    expect(await (await s.call("GET", "/api/projects/cli-teaser/files/assets/notes.txt")).text()).toBe("notes, edited");
  });

  it("lints: exit 0 on a clean project, 1 with the findings on a broken one", async () => {
    const clean = await studio(["lint", "cli-teaser"]);
    expect(clean.code, clean.out + clean.err).toBe(0);
    expect(clean.out).toContain("0 errors");
    const unpaused = starterComposition({ compositionId: "cli-broken", title: "Broken", duration: 1 }).replace("gsap.timeline({ paused: true })", "gsap.timeline()");
    expect((await s.call("POST", "/api/projects", { name: "CLI Broken", html: unpaused })).status).toBe(201);
    const broken = await studio(["lint", "cli-broken"]);
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/^error\s+index\.html: timeline_not_paused: /m);
  });

  it("renders with a progress bar to 100 % and downloads the video", async () => {
    const out = join(home, "teaser.mp4");
    const rendered = await studio(["render", "cli-teaser", "--quality", "draft", "--out", out]);
    expect(rendered.code, rendered.out + rendered.err).toBe(0);
    expect(rendered.out).toMatch(/\[#{30}\] 100%/);
    expect(rendered.out).toContain("render done");
    // Lines that only the event stream carries (the final state shows just the last one).
    expect(rendered.out).toMatch(/^  \| frame \d+\/30 \(\d+%\)/m);
    expect(rendered.out).toMatch(/^\[#*-+\] +\d{1,2}% frame \d+\/30/m);
    const video = readFileSync(out);
    expect(video.subarray(4, 8).toString()).toBe("ftyp");
    const byProject = await studio(["download", "cli-teaser", "--out", join(home, "again.mp4")]);
    expect(byProject.code, byProject.err).toBe(0);
    expect(readFileSync(join(home, "again.mp4")).equals(video)).toBe(true);
    const filename = /render (cli-teaser_\S+\.mp4)/.exec(rendered.out)![1]!;
    const byName = await studio(["download", filename], {});
    expect(byName.code, byName.err).toBe(0);
    expect(readFileSync(join(home, filename)).equals(video)).toBe(true);
  }, 180_000);

  it("reports a failed render with its log and exit 1; usage errors exit 2", async () => {
    const failed = await studio(["render", "cli-broken", "--strict"]);
    expect(failed.code, failed.out + failed.err).toBe(1);
    expect(failed.out).toContain("render failed");
    expect(failed.out).toContain("timeline_not_paused");
    expect((await studio(["lint"])).code).toBe(2);
    expect((await studio(["frobnicate"])).code).toBe(2);
  }, 60_000);

  it("works from STUDIO_TOKEN and STUDIO_URL without a saved login", async () => {
    await studio(["logout"]);
    expect((await studio(["projects"])).code).toBe(2);
    const listed = await studio(["projects"], { STUDIO_TOKEN: s.token, STUDIO_URL: s.url });
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain("cli-teaser");
  });
});
