import { describe, expect, it } from "vitest";
import { backoffDelay, retry } from "./retry.ts";

describe("backoffDelay", () => {
  it("doubles from the first delay up to the cap", () => {
    const backoff = { firstMs: 1000, maxMs: 5000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(backoff, n))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
  it("keeps a fixed delay with factor 1", () => {
    expect([1, 2, 7].map((n) => backoffDelay({ firstMs: 100, factor: 1 }, n))).toEqual([100, 100, 100]);
  });
});

describe("retry", () => {
  const quick = { firstMs: 1, maxMs: 2 };

  it("returns the value of the first attempt that succeeds, with the attempts made", async () => {
    const delays: number[] = [];
    const outcome = await retry(
      async (attempt) => {
        if (attempt < 3) throw new Error(`down ${attempt}`);
        return "up";
      },
      { attempts: 5, backoff: quick, onRetry: (_error, _retry, ms) => delays.push(ms) },
    );
    expect(outcome).toEqual({ ok: true, value: "up", attempts: 3 });
    expect(delays).toEqual([1, 2]);
  });

  it("gives the last error once the attempts run out", async () => {
    let calls = 0;
    const outcome = await retry(async (attempt) => {
      calls++;
      throw new Error(`down ${attempt}`);
    }, { attempts: 3, backoff: quick });
    expect(calls).toBe(3);
    expect(outcome).toMatchObject({ ok: false, attempts: 3, stopped: "exhausted" });
    expect(outcome.ok === false && (outcome.error as Error).message).toBe("down 3");
  });

  it("stops at once on an error that is not retryable", async () => {
    let calls = 0;
    const outcome = await retry(async () => {
      calls++;
      throw new TypeError("refused");
    }, { attempts: 5, backoff: quick, retryable: (error) => !(error instanceof TypeError) });
    expect(calls).toBe(1);
    expect(outcome).toMatchObject({ ok: false, attempts: 1, stopped: "not-retryable" });
  });

  it("stops waiting when the signal aborts", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = retry(async () => {
      throw new Error("down");
    }, { attempts: 5, backoff: { firstMs: 60_000 }, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const outcome = await pending;
    expect(outcome).toMatchObject({ ok: false, attempts: 1, stopped: "aborted" });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
