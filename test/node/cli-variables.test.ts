// `studio render --variables / --variables-file / --strict-variables`: the flags are read and checked before the
// CLI talks to the studio, with the API's limits; a mistake is a usage error (exit 2) naming it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readVariablesFlags } from "../../cli/lib/read-variables.ts";

const dir = mkdtempSync(join(tmpdir(), "studio-cli-vars-"));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe("CLI render variables", () => {
  it("reads an inline object or a file, and neither means none", () => {
    expect(readVariablesFlags('{"title":"Q4","n":2}', undefined)).toEqual({ title: "Q4", n: 2 });
    expect(readVariablesFlags(undefined, file("ok.json", '{"title":"From a file"}'))).toEqual({ title: "From a file" });
    expect(readVariablesFlags(undefined, undefined)).toBeUndefined();
  });

  it("refuses both flags at once, bad JSON, a non-object, a missing or oversized file, and the API's limits", () => {
    expect(() => readVariablesFlags("{}", file("a.json", "{}"))).toThrow("use either --variables or --variables-file, not both");
    expect(() => readVariablesFlags("{title:", undefined)).toThrow(/^--variables: not JSON: /);
    expect(() => readVariablesFlags("[1]", undefined)).toThrow('--variables: give a JSON object keyed by variable id, such as {"title":"Q4 Report"}');
    expect(() => readVariablesFlags(undefined, join(dir, "missing.json"))).toThrow(/--variables-file .*missing\.json: cannot read it \(ENOENT\)/);
    expect(() => readVariablesFlags(undefined, file("big.json", JSON.stringify({ t: "x".repeat(70_000) })))).toThrow(/over 32768 bytes/);
    expect(() => readVariablesFlags(JSON.stringify({ t: "x".repeat(33_000) }), undefined)).toThrow(/bytes as JSON; at most 32768/);
  });

  it("a bad --variables is a usage error before any request (exit 2), and the help names the flags", () => {
    const run = (args: string[]) => spawnSync(process.execPath, ["cli/studio.ts", ...args], { encoding: "utf8", env: { ...process.env, STUDIO_TOKEN: "", STUDIO_URL: "http://127.0.0.1:9" } });
    const bad = run(["render", "demo", "--variables", "[1]"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("studio: --variables: give a JSON object keyed by variable id");
    const help = run(["help"]);
    expect(help.stdout).toContain("--variables JSON | --variables-file PATH] [--strict-variables]");
  });
});
