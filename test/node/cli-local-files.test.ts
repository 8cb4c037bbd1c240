// The CLI's own files, read without swallowing failures (issue 32, point 5): a saved login that cannot be read is
// ignored with a line on stderr saying which file and why (it used to be dropped silently, leaving "not logged in"
// unexplained); no file yet is simply no login. A project folder's name comes from hyperframes.json or meta.json
// when they give one, and from the folder otherwise, whatever is wrong with those files.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readSavedLogin } from "../../cli/lib/config.ts";
import { projectName } from "../../cli/lib/project-folder.ts";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "studio-cli-files-"));
  dirs.push(dir);
  return dir;
};

afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** What the CLI wrote on stderr while `run` ran. */
function stderrOf(run: () => void): string {
  let written = "";
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    written += String(chunk);
    return true;
  });
  run();
  return written;
}

describe("the saved login", () => {
  it("is none, quietly, before the first login", () => {
    const env = { XDG_CONFIG_HOME: tempDir() };
    let login: unknown;
    expect(stderrOf(() => (login = readSavedLogin(env)))).toBe("");
    expect(login).toEqual({});
  });

  it("is read when it is JSON", () => {
    const home = tempDir();
    mkdirSync(join(home, "studio"));
    writeFileSync(join(home, "studio", "config.json"), JSON.stringify({ url: "http://studio.test", token: "st_1" }));
    expect(readSavedLogin({ XDG_CONFIG_HOME: home })).toEqual({ url: "http://studio.test", token: "st_1" });
  });

  it("is ignored with a line naming the file and the problem when it is not JSON", () => {
    const home = tempDir();
    mkdirSync(join(home, "studio"));
    const path = join(home, "studio", "config.json");
    writeFileSync(path, "{ not json");
    let login: unknown;
    const said = stderrOf(() => (login = readSavedLogin({ XDG_CONFIG_HOME: home })));
    expect(login).toEqual({});
    expect(said).toContain(`ignoring the saved login in ${path}`);
    expect(said).toContain("run studio login again");
  });
});

describe("a project folder's name", () => {
  it("comes from hyperframes.json, then meta.json, then the folder, past missing, broken and linked files", () => {
    const root = tempDir();
    expect(projectName(root)).toBe(basename(root));
    writeFileSync(join(root, "meta.json"), JSON.stringify({ name: " From Meta " }));
    expect(projectName(root)).toBe("From Meta");
    writeFileSync(join(root, "hyperframes.json"), "{ broken");
    expect(projectName(root)).toBe("From Meta");
    rmSync(join(root, "hyperframes.json"));
    symlinkSync(join(root, "meta.json"), join(root, "hyperframes.json"));
    expect(projectName(root)).toBe("From Meta");
    rmSync(join(root, "hyperframes.json"));
    writeFileSync(join(root, "hyperframes.json"), JSON.stringify({ name: "From Hyperframes" }));
    expect(projectName(root)).toBe("From Hyperframes");
  });
});
