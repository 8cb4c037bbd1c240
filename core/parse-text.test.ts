import { describe, expect, it } from "vitest";
import { attempt, attemptAsync, decodeBase64Text, decodeComponent, encodeComponent, parseJson, parseUrl } from "./parse-text.ts";

describe("parse-text", () => {
  it("answers each parser's value", () => {
    expect(parseJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseUrl("/x?y", "https://a.example/").ok && (parseUrl("/x?y", "https://a.example/") as { value: URL }).value.href).toBe("https://a.example/x?y");
    expect(decodeComponent("a%20b")).toEqual({ ok: true, value: "a b" });
    expect(encodeComponent("a b")).toEqual({ ok: true, value: "a%20b" });
    expect(decodeBase64Text("aGk=")).toEqual({ ok: true, value: "hi" });
  });

  it("answers bad input as a problem naming it, never a throw", async () => {
    for (const read of [parseJson("{"), parseUrl("not a url"), decodeComponent("%E0%A4%A"), encodeComponent("\uD800"), decodeBase64Text("a")]) {
      expect(read.ok).toBe(false);
      expect(!read.ok && read.problem.length).toBeGreaterThan(0);
    }
    expect(await attemptAsync(async () => Promise.reject(new Error("nope")))).toEqual({ ok: false, problem: "nope" });
    expect(attempt(() => { throw "plain"; })).toEqual({ ok: false, problem: "plain" });
  });
});
