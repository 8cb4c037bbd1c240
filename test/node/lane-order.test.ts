// The order test/lane-order.ts gives the group of end-to-end and workerd files (vitest hands them to its two
// workers in this order): the longest end-to-end file first, every workerd file next (they run beside it), then the
// other end-to-end files, each of which waits for the one before (the one-at-a-time lock).
import { describe, expect, it } from "vitest";
import { laneOrder } from "../lane-order.ts";

const lanes: Record<string, "lock" | "beside" | "other"> = { e2eShort: "lock", e2eLong: "lock", e2eMid: "lock", w1: "beside", w2: "beside", ws1: "beside", pure1: "other" };
const expected: Record<string, number> = { e2eShort: 1_000, e2eLong: 150_000, e2eMid: 40_000 };
const order = (files: string[]) => laneOrder(files, (f) => lanes[f]!, (f) => expected[f] ?? 0);

describe("the lanes' order", () => {
  it("leads with the longest end-to-end file, then every workerd file in its order, then the other end-to-end files", () => {
    expect(order(["pure1", "e2eShort", "e2eLong", "e2eMid", "w1", "w2", "ws1"])).toEqual(["pure1", "e2eLong", "w1", "w2", "ws1", "e2eShort", "e2eMid"]);
  });

  it("keeps the order it was given when one of the lanes is empty", () => {
    expect(order(["e2eShort", "e2eLong"])).toEqual(["e2eShort", "e2eLong"]);
    expect(order(["w2", "w1", "pure1"])).toEqual(["w2", "w1", "pure1"]);
  });

  it("leads with the first of equals (no duration known: the order vitest chose)", () => {
    expect(laneOrder(["a", "b", "w"], (f) => (f === "w" ? "beside" : "lock"), () => 0)).toEqual(["a", "w", "b"]);
  });
});
