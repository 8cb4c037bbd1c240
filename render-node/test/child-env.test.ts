// Chromium and ffmpeg never see the node's secrets: a real render runs with NODE_KEY and another secret in the
// node's environment, and every process it starts (browser, renderers, ffmpeg) is read from /proc/<pid>/environ
// while it runs. Only child-env.ts's allow-list (paths, locale, time zone) may be there.
import { readFileSync, readlinkSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEnv, passesToChild } from "../src/system/child-env.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { listDescendants } from "./inspect-video.ts";
import { makeTestProject } from "./make-test-project.ts";

const NODE_KEY = "stn_child-env-test-key-4f1c9a7e2b";
const OTHER_SECRET = "sk_live_child-env-other-secret-93d0";

interface Seen {
  pid: number;
  exe: string;
  env: Map<string, string>;
}

/** A running process's executable and environment, or null if it is gone or not past its exec yet. */
function inspect(pid: number): Seen | null {
  try {
    const exe = readlinkSync(`/proc/${pid}/exe`);
    // A child forked by the node but not yet exec'd still shows the node's own environment: not a child's yet.
    if (exe === process.execPath) return null;
    const env = new Map<string, string>();
    for (const entry of readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")) {
      const at = entry.indexOf("=");
      if (at > 0) env.set(entry.slice(0, at), entry.slice(at + 1));
    }
    return { pid, exe, env };
  } catch {
    return null;
  }
}

describe.runIf(process.platform === "linux")("child process environment", () => {
  let binaries: Binaries;
  let project: string;
  const saved = { NODE_KEY: process.env.NODE_KEY, STUDIO_OTHER_SECRET: process.env.STUDIO_OTHER_SECRET, LC_TIME: process.env.LC_TIME };

  beforeAll(async () => {
    binaries = await resolveBinaries();
    project = await makeTestProject(binaries.ffmpeg, { duration: 3 });
    process.env.NODE_KEY = NODE_KEY;
    process.env.STUDIO_OTHER_SECRET = OTHER_SECRET;
    process.env.LC_TIME = "C.UTF-8"; // an allowed variable, to see it does pass
  });

  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("a real render's Chromium and ffmpeg processes carry no key, only the allow-list", async () => {
    const before = new Set(listDescendants(process.pid));
    const seen = new Map<number, Seen>();
    const look = () => {
      for (const pid of listDescendants(process.pid)) {
        if (before.has(pid) || seen.has(pid)) continue;
        const found = inspect(pid);
        if (found) seen.set(pid, found);
      }
    };
    const out = join(await mkdtemp(join(tmpdir(), "studio-child-env-")), "out.mp4");
    const result = await renderProject({
      projectDir: project, outputPath: out, format: "mp4", quality: "draft",
      signal: new AbortController().signal, onProgress: look, onLine: () => {},
    });
    expect(result.frames).toBeGreaterThan(0);

    const processes = [...seen.values()];
    const names = processes.map((p) => basename(p.exe));
    // The browser (and its renderers) and the encoder were all looked at while they ran.
    expect(names.some((n) => /chrom|headless/i.test(n)), names.join(", ")).toBe(true);
    expect(names.some((n) => /ffmpeg/.test(n)), names.join(", ")).toBe(true);
    for (const { pid, exe, env } of processes) {
      const where = `${basename(exe)} (pid ${pid})`;
      expect(env.has("NODE_KEY"), where).toBe(false);
      expect(env.has("STUDIO_OTHER_SECRET"), where).toBe(false);
      expect([...env.values()].some((v) => v.includes(NODE_KEY) || v.includes(OTHER_SECRET)), where).toBe(false);
      // The launch wrapper's own variables stop at the wrapper.
      expect(env.has("STUDIO_SETPRIV") || env.has("STUDIO_CHILD_BINARY"), where).toBe(false);
    }
    // What is allowed does arrive. The browser process has it (plus PWD, which the launch wrapper's shell sets);
    // Chromium's zygotes and renderers write their process titles over that memory, so it is read on the browser.
    const browsers = processes.filter((p) => !/ffmpeg/.test(basename(p.exe)) && p.env.get("PATH") === process.env.PATH);
    expect(browsers.length).toBeGreaterThan(0);
    for (const { env } of browsers) {
      expect(env.get("LC_TIME")).toBe("C.UTF-8");
      expect([...env.keys()].filter((name) => !passesToChild(name) && name !== "PWD")).toEqual([]);
    }
    // ffmpeg's environment is exactly the allow-list.
    for (const { exe, env } of processes.filter((p) => /ffmpeg/.test(basename(p.exe)))) {
      expect(env.get("PATH"), exe).toBe(process.env.PATH);
      expect(env.get("LC_TIME"), exe).toBe("C.UTF-8");
      expect([...env.keys()].filter((name) => !passesToChild(name)), exe).toEqual([]);
    }
  });

  it("builds the environment from the allow-list alone", () => {
    const from = {
      PATH: "/usr/bin",
      HOME: "/home/node",
      LANG: "en_US.UTF-8",
      LC_ALL: "C",
      FONTCONFIG_PATH: "/tmp/fonts",
      LD_LIBRARY_PATH: "/tmp/al2023/lib",
      NODE_KEY,
      TOKEN_SECRET: "x",
      AWS_SECRET_ACCESS_KEY: "y",
      NODE_OPTIONS: "--require /tmp/evil.js",
      STUDIO_URL: "https://studio.example.com",
    };
    expect(childEnv({ TMPDIR: "/tmp/profile" }, from)).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/node",
      LANG: "en_US.UTF-8",
      LC_ALL: "C",
      FONTCONFIG_PATH: "/tmp/fonts",
      LD_LIBRARY_PATH: "/tmp/al2023/lib",
      TMPDIR: "/tmp/profile",
    });
  });
});
