// `studio render SLUG --batch rows.json`: the rows file read as HyperFrames' `render --batch` takes it (an array, or
// { rows }; a row the variables themselves, or the API's { variables, name }) and checked with the API's own rules
// before the CLI talks to the studio; a mistake is a usage error (exit 2) naming the row.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBatchFile } from "../../cli/lib/read-batch.ts";

const dir = mkdtempSync(join(tmpdir(), "studio-cli-batch-"));
const file = (name: string, value: unknown) => {
  writeFileSync(join(dir, name), typeof value === "string" ? value : JSON.stringify(value));
  return join(dir, name);
};

describe("CLI render --batch", () => {
  it("reads HyperFrames rows and the API's rows, in an array or under rows, with the shared options", () => {
    const hyperframes = readBatchFile(file("hf.json", [{ name: "alpha", headline: "Hello" }, { headline: "Welcome" }]), { quality: "draft" });
    // A HyperFrames row is all variables: its "name" key is a variable, not the row's name.
    expect(hyperframes.rows).toEqual([{ name: null, variables: { name: "alpha", headline: "Hello" } }, { name: null, variables: { headline: "Welcome" } }]);
    expect(hyperframes.options.quality).toBe("draft");
    const api = readBatchFile(file("api.json", { rows: [{ name: "alpha", variables: { headline: "Hello" } }, {}] }), {});
    expect(api.rows).toEqual([{ name: "alpha", variables: { headline: "Hello" } }, { name: null, variables: {} }]);
    expect(api.body).toEqual({ rows: [{ name: "alpha", variables: { headline: "Hello" } }, { variables: {} }] });
  });

  it("refuses what the API would, naming the file and the row", () => {
    expect(() => readBatchFile(file("bad.json", "[{"), {})).toThrow(/^--batch .*bad\.json is not JSON: /);
    expect(() => readBatchFile(file("obj.json", { row: [] }), {})).toThrow('give a JSON array of rows, or an object with a "rows" array');
    expect(() => readBatchFile(file("empty.json", []), {})).toThrow("invalid rows: 0 rows; give 1 to 100");
    expect(() => readBatchFile(file("many.json", Array.from({ length: 101 }, () => ({}))), {})).toThrow("invalid rows: 101 rows; give 1 to 100");
    expect(() => readBatchFile(file("row.json", [{}, 3]), {})).toThrow("invalid rows[1]: give an object");
    expect(() => readBatchFile(file("dup.json", [{ name: "a", variables: {} }, { name: "a", variables: {} }]), {})).toThrow('invalid rows[1].name: "a" is also the name of rows[0]');
    expect(() => readBatchFile(file("big.json", [{ t: "x".repeat(40_000) }]), {})).toThrow("invalid rows[0].variables: 40008 bytes as JSON; at most 32768");
    expect(() => readBatchFile(join(dir, "missing.json"), {})).toThrow(/cannot read it \(ENOENT\)/);
    expect(() => readBatchFile(file("fmt.json", [{}]), { format: "avi" })).toThrow('invalid format: "avi"');
  });

  it("a bad rows file, or --batch with --variables, is a usage error before any request (exit 2); the help names --batch", () => {
    const run = (args: string[]) => spawnSync(process.execPath, ["cli/studio.ts", ...args], { encoding: "utf8", env: { ...process.env, STUDIO_TOKEN: "", STUDIO_URL: "http://127.0.0.1:9" } });
    const bad = run(["render", "demo", "--batch", file("usage.json", [{}, "x"])]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("invalid rows[1]: give an object");
    const both = run(["render", "demo", "--batch", file("ok.json", [{}]), "--variables", "{}"]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("--batch gives each row its variables: leave out --variables and --variables-file");
    expect(run(["help"]).stdout).toContain("studio render SLUG --batch ROWS.json [--out DIR]");
  });
});
