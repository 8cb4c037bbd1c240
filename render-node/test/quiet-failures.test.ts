// What the node goes on without is said, not swallowed: a failure let go is written at debug level when an operator
// asks for it (NODE_DEBUG=studio-node), beginFrame's empty answers are asked again through the one retry loop
// (and any other failure is not), and a capture browser's profile folder goes when its process has exited.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { askUntilDrawn } from "../src/capture/capture-frame.ts";
import { removeWhenExited } from "../src/system/scratch-dirs.ts";

const run = promisify(execFile);
const exists = (path: string) => stat(path).then(() => true, () => false);

describe("the debug log", () => {
  const script = `import { logDebug } from ${JSON.stringify(new URL("../src/system/debug-log.ts", import.meta.url).href)};
logDebug("scratch folder /tmp/x not removed", new Error("EBUSY: resource busy"));`;

  it("says why a failure was let go when NODE_DEBUG names the node", async () => {
    const { stderr } = await run(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, NODE_DEBUG: "studio-node" } });
    expect(stderr).toMatch(/STUDIO-NODE \d+: scratch folder \/tmp\/x not removed: EBUSY: resource busy/);
  });

  it("writes nothing otherwise", async () => {
    const { stderr } = await run(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, NODE_DEBUG: "" } });
    expect(stderr).not.toMatch(/STUDIO-NODE/);
  });
});

describe("askUntilDrawn", () => {
  it("asks again while beginFrame answers no image, and gives the first image", async () => {
    const answers = [null, null, Buffer.from("frame")];
    let asked = 0;
    const frame = await askUntilDrawn(4, async () => answers[asked++] ?? null);
    expect(frame?.toString()).toBe("frame");
    expect(asked).toBe(3);
  });

  it("gives null after as many empty answers as it may ask", async () => {
    let asked = 0;
    expect(await askUntilDrawn(3, async () => (asked++, null))).toBeNull();
    expect(asked).toBe(3);
  });

  it("does not ask again after a failure that is not an empty answer", async () => {
    let asked = 0;
    await expect(askUntilDrawn(4, async () => {
      asked++;
      throw new Error("Target closed");
    })).rejects.toThrow("Target closed");
    expect(asked).toBe(1);
  });
});

describe("removeWhenExited", () => {
  it("removes the folder at once when there is no process", async () => {
    const dir = await mkdtemp(join(tmpdir(), "studio-quiet-"));
    await removeWhenExited(dir, undefined);
    expect(await exists(dir)).toBe(false);
  });

  it("keeps the folder while its process runs and removes it once it has exited", async () => {
    const dir = await mkdtemp(join(tmpdir(), "studio-quiet-"));
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 300)"]);
    await removeWhenExited(dir, child);
    expect(await exists(dir)).toBe(true);
    await new Promise((done) => child.once("exit", done));
    await expect.poll(() => exists(dir), { timeout: 5000 }).toBe(false);
  });
});
