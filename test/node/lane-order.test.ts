// The order test/lane-order.ts gives the group of end-to-end and workerd files (vitest hands them to its two workers
// in this order): the longest end-to-end file first, then the workerd files (they run beside it), each other
// end-to-end file only once the workerd files before it are expected to outlast, with a margin, the end-to-end files
// before it (or it would wait for the lock, holding a worker idle), and the rest at the end.
import { describe, expect, it } from "vitest";
import { laneOrder, MARGIN } from "../lane-order.ts";

const lanes: Record<string, "lock" | "beside" | "other"> = { e2eShort: "lock", e2eLong: "lock", e2eMid: "lock", w1: "beside", w2: "beside", ws1: "beside", pure1: "other" };
const order = (files: string[], expected: Record<string, number>) => laneOrder(files, (f) => lanes[f]!, (f) => expected[f] ?? 0);

describe("the lanes' order", () => {
  it("leads with the longest end-to-end file, every workerd file next while they are expected to end first, then the other end-to-end files", () => {
    const expected = { e2eShort: 1_000, e2eLong: 150_000, e2eMid: 40_000, w1: 10_000, w2: 10_000, ws1: 10_000 };
    expect(order(["pure1", "e2eShort", "e2eLong", "e2eMid", "w1", "w2", "ws1"], expected)).toEqual(["pure1", "e2eLong", "w1", "w2", "ws1", "e2eShort", "e2eMid"]);
  });

  it("puts each other end-to-end file once the workerd files before it are expected to outlast those before it by the margin", () => {
    expect(MARGIN).toBeGreaterThan(1.2);
    expect(MARGIN).toBeLessThan(1.8);
    // eLong ends at 100 s, eMid at 150 s; the workerd files at 40, 80, 120, 160, 200 and 240 s. eMid goes after the
    // first past 130 s (100 × MARGIN), eShort after the first past 195 s.
    const expected: Record<string, number> = { eLong: 100_000, eMid: 50_000, eShort: 10_000 };
    const files = ["eLong", "eMid", "eShort", "w1", "w2", "w3", "w4", "w5", "w6"];
    const got = laneOrder(files, (f) => (f.startsWith("e") ? "lock" : "beside"), (f) => expected[f] ?? 40_000);
    expect(got).toEqual(["eLong", "w1", "w2", "w3", "w4", "eMid", "w5", "eShort", "w6"]);
  });

  it("keeps the order it was given when one of the lanes is empty", () => {
    expect(order(["e2eShort", "e2eLong"], {})).toEqual(["e2eShort", "e2eLong"]);
    expect(order(["w2", "w1", "pure1"], {})).toEqual(["w2", "w1", "pure1"]);
  });

  it("leads with the first of equals (no duration known: the order vitest chose)", () => {
    expect(laneOrder(["a", "b", "w"], (f) => (f === "w" ? "beside" : "lock"), () => 0)).toEqual(["a", "w", "b"]);
  });
});
