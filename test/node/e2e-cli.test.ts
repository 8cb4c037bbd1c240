// The command-line client (cli/studio.ts) run as a process against the real Worker (wrangler dev) and a real render
// node: login saving the token (0600) and refusing a wrong one; push of a HyperFrames-style folder (hyperframes.json
// names the project; text and binary files byte for byte; dot files and node_modules left out; a second push
// updates); lint (exit 0, and 1 with the findings on a broken composition); render with a progress bar from the
// event stream and the video downloaded; download by project and by file name; STUDIO_TOKEN without a saved login.
// Hostile input: a composition whose lint findings and strict-render log carry terminal escapes (nothing of them
// reaches the CLI's output), and a folder with symbolic links out of it and back into it, a FIFO and a socket
// (push skips each by name, finishes, and uploads nothing from outside).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { starterComposition } from "../../core/composition/starter.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";
import { signInToSharedStudio, type SharedSignedIn } from "./shared-studio.ts";

let s: SharedSignedIn;
let home = "";
let folder = "";

/** Runs the CLI; killed after `timeoutMs` (exit code null), so a push that would never end fails its test. */
function studio(args: string[], env: Record<string, string> = {}, timeoutMs = 150_000): Promise<{ code: number | null; out: string; err: string }> {
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
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** Anything a terminal would act on rather than show: C0 but newline and tab, DEL, C1, bidi controls. */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** Title, clear screen, clipboard write, a fake verdict, an 8-bit CSI, a right-to-left override and a bare \r. */
const HOSTILE = "\u001b]0;pwned\u0007\u001b[2J\u001b]52;c;SGVsbG8=\u0007ALL CHECKS PASSED\u009b2J\u202e\r";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0xff, 0xfe, 0x00, 0x01]);

beforeAll(async () => {
  s = await signInToSharedStudio("e2e-cli");
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

  it("prints a hostile composition's lint findings and strict-render log without any terminal control", async () => {
    // Element ids and asset paths are the composition's own words, quoted back in lint messages and fix hints,
    // and in a strict render's log lines.
    const html = starterComposition({ compositionId: "cli-hostile", title: "Hostile", duration: 1 }).replace(
      /(<div[^>]*data-composition-id[^>]*>)/,
      `$1<div id="${HOSTILE}"></div><div id="${HOSTILE}"></div><img src="assets/${HOSTILE}.png">`,
    );
    expect((await s.call("POST", "/api/projects", { name: "CLI Hostile", html })).status).toBe(201);
    // The studio does hand the raw escapes back: what the CLI must not pass on.
    expect(await (await s.call("POST", "/api/projects/cli-hostile/lint", {})).text()).toContain("\\u001b]0;pwned\\u0007");

    const linted = await studio(["lint", "cli-hostile"]);
    expect(linted.code, linted.err).toBe(1);
    expect(linted.out + linted.err).not.toMatch(TERMINAL_CONTROL);
    expect(linted.out).toMatch(/^error\s+index\.html: asset_missing: "assets\/ALL CHECKS PASSED\.png" does not exist/m);
    expect(linted.out).toMatch(/^warning\s+index\.html: duplicate_element_id: id="ALL CHECKS PASSED" is used by 2 elements/m);

    const rendered = await studio(["render", "cli-hostile", "--strict"]);
    expect(rendered.code, rendered.out + rendered.err).toBe(1);
    expect(rendered.out + rendered.err).not.toMatch(TERMINAL_CONTROL);
    expect(rendered.out).toContain("render failed");
    expect(rendered.out).toContain('lint error asset_missing in index.html (img[src="assets/ALL CHECKS PASSED.png"])');
  }, 60_000);

  it("pushes only regular files inside the folder: links, a link cycle, a FIFO and a socket skipped by name", async () => {
    const secrets = join(home, "secrets");
    mkdirSync(secrets, { recursive: true });
    writeFileSync(join(secrets, "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----");
    const cloned = join(home, "cloned");
    mkdirSync(join(cloned, "assets"), { recursive: true });
    mkdirSync(join(cloned, "nested"), { recursive: true });
    writeFileSync(join(cloned, "hyperframes.json"), JSON.stringify({ name: "CLI Cloned" }));
    writeFileSync(join(cloned, "index.html"), starterComposition({ compositionId: "cli-cloned", title: "Cloned", duration: 1 }));
    writeFileSync(join(cloned, "assets", "real.txt"), "real");
    writeFileSync(join(cloned, "nested", "ok.txt"), "ok");
    symlinkSync(secrets, join(cloned, "assets", "ssh")); // a folder outside
    symlinkSync(join(secrets, "id_ed25519"), join(cloned, "assets", "key.txt")); // a file outside
    symlinkSync(".", join(cloned, "loop")); // loop -> .
    symlinkSync("..", join(cloned, "nested", "up")); // nested/up -> ..
    execFileSync("mkfifo", [join(cloned, "assets", "pipe")]);
    const socket: Server = createServer();
    await new Promise<void>((r) => socket.listen(join(cloned, "assets", "sock"), r));
    try {
      const started = Date.now();
      const pushed = await studio(["push", cloned], {}, 30_000);
      expect(pushed.code, pushed.out + pushed.err).toBe(0);
      expect(Date.now() - started).toBeLessThan(30_000);
      const why = "a symbolic link (studio push uploads only regular files inside the project folder)";
      for (const line of [`skipped assets/key.txt: ${why}`, `skipped assets/ssh: ${why}`, `skipped loop: ${why}`, `skipped nested/up: ${why}`, "skipped assets/pipe: a named pipe (FIFO), not a regular file", "skipped assets/sock: a socket, not a regular file"]) {
        expect(pushed.out).toContain(`${line}\n`);
      }
      expect(pushed.out).toContain("pushed 4 files");
    } finally {
      await new Promise((r) => socket.close(r));
    }
    const listing = (await (await s.call("GET", "/api/projects/cli-cloned/files")).json()) as { files: Array<{ path: string }> };
    const paths = listing.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["index.html", "hyperframes.json", "assets/real.txt", "nested/ok.txt"]));
    expect(paths.filter((p) => /ssh|key|loop|up\/|pipe|sock/.test(p))).toEqual([]);
    for (const path of paths) {
      expect(await (await s.call("GET", `/api/projects/cli-cloned/files/${path}`)).text(), path).not.toContain("PRIVATE KEY");
    }
  }, 60_000);

  it("works from STUDIO_TOKEN and STUDIO_URL without a saved login", async () => {
    await studio(["logout"]);
    expect((await studio(["projects"])).code).toBe(2);
    const listed = await studio(["projects"], { STUDIO_TOKEN: s.token, STUDIO_URL: s.url });
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain("cli-teaser");
  });
});
