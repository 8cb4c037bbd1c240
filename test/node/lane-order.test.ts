// The order test/lane-order.ts gives the group of end-to-end and workerd files (vitest hands them to its two workers
// in this order): the longest end-to-end file first, then the pure files (the other worker runs them while it waits
// for its studio's data folder); beside it, the workerd files expected to end, with a margin, before it does; then
// the next end-to-end file, so that a worker already waits for the lock when it is handed on; beside files too long
// for any wait going anyway when the lock's files left could not hold them; the rest at the end.
import { describe, expect, it } from "vitest";
import { laneOrder, MARGIN } from "../lane-order.ts";

const order = (files: string[], expected: Record<string, number>) =>
  laneOrder(files, (f) => (f.startsWith("pure") ? "other" : f.startsWith("e2e") ? "lock" : "beside"), (f) => expected[f] ?? 0);

describe("the lanes' order", () => {
  it("leads with the longest end-to-end file and puts beside it the workerd files that end before it, then the next end-to-end file to wait for the lock", () => {
    expect(MARGIN).toBeGreaterThan(1.2);
    expect(MARGIN).toBeLessThan(2);
    // e2eLong holds the lock 0 to 100 s. Beside it: big (0 to 50 s, 80 with the margin) and w1 (50 to 70 s, 82);
    // w2 (to 102 with the margin) would not end before the lock is free, so e2eMid comes next: its worker waits from
    // 70 s and takes the lock at 100 s. The other worker, free at 100 s, runs w2 and w3 beside it; e2eShort waits.
    const expected = { e2eLong: 100_000, e2eMid: 90_000, e2eShort: 10_000, big: 50_000, w1: 20_000, w2: 20_000, w3: 20_000 };
    expect(order(["pure1", "e2eMid", "e2eLong", "e2eShort", "big", "w1", "w2", "w3"], expected)).toEqual(["e2eLong", "pure1", "big", "w1", "e2eMid", "w2", "w3", "e2eShort"]);
  });

  it("skips a beside file that would not end before the lock is free for the next ones that would", () => {
    // long (70 s, 112 with the margin) does not fit beside e2eA's 100 s; s1 and s2 do, and go first.
    const expected = { e2eA: 100_000, e2eB: 100_000, e2eC: 100_000, long: 70_000, s1: 10_000, s2: 10_000 };
    expect(order(["e2eA", "e2eB", "e2eC", "long", "s1", "s2"], expected)).toEqual(["e2eA", "s1", "s2", "e2eB", "long", "e2eC"]);
  });

  it("lets a beside file too long for any hold of the lock go anyway when the lock's files left could not hold the beside files left", () => {
    // Waiting for the lock would put a and b after e2eLast (to 200 s); beside e2eFirst instead, all ends at 180 s.
    const expected = { e2eFirst: 100_000, e2eLast: 10_000, a: 90_000, b: 90_000 };
    expect(order(["e2eFirst", "e2eLast", "a", "b"], expected)).toEqual(["e2eFirst", "a", "b", "e2eLast"]);
  });

  it("keeps the order it was given when one of the lanes is empty", () => {
    expect(order(["e2eShort", "e2eLong"], {})).toEqual(["e2eShort", "e2eLong"]);
    expect(order(["w2", "w1", "pure1"], {})).toEqual(["w2", "w1", "pure1"]);
  });

  it("leads with the first of equals (no duration known: the order vitest chose)", () => {
    expect(laneOrder(["a", "b", "w"], (f) => (f === "w" ? "beside" : "lock"), (f) => (f === "w" ? 1 : 10))).toEqual(["a", "w", "b"]);
  });
});
