// Slow is not hung, as data: the paced bound's verdicts and messages, a bound fed a fake CPU reading (idle, starved,
// spinning, unknown), the /proc readers, and the render timeline. Real timers, short bounds.
import { describe, expect, it } from "vitest";
import { busyShare, readCpuTimes } from "../src/system/machine-cpu.ts";
import { IDLE_SHARE, IDLE_SPAN_MS, judgePace, paceDetail, withPacedDeadline, StageTimeout, type PaceProbe } from "../src/bounds/deadline.ts";
import { parseProcStat, processTreeCpuMs } from "../src/bounds/process-tree-cpu.ts";
import { formatTimeline, startTimeline } from "../src/progress/render-timeline.ts";

const BOUND = { ms: 10_000, ceilingMs: 100_000 };

describe("judgePace", () => {
  it("fails a stage whose processes did nothing in the window: waiting on something that never comes", () => {
    const verdict = judgePace({ pacedMs: 10_000, wallMs: 10_000, idleMs: 0 }, { wallMs: IDLE_SPAN_MS, cpuMs: IDLE_SPAN_MS * IDLE_SHARE * 0.5 }, BOUND, true);
    expect(verdict).toMatchObject({ kind: "fail", reason: "idle" });
    expect(paceDetail(verdict as never, "its browser")).toBe(" (its browser was idle: waiting on something that never came)");
  });
  it("waits out a short idle stretch (a starved process can get nothing for a quarter second), not a long one", () => {
    const window = { wallMs: 250, cpuMs: 0 };
    let state = { pacedMs: 1000, wallMs: 10_000, idleMs: 0 };
    for (let i = 1; i < IDLE_SPAN_MS / 250; i++) {
      const verdict = judgePace(state, window, BOUND, true);
      expect(verdict.kind).toBe("wait");
      state = verdict.state;
    }
    // A busy window in between starts the count again.
    const busy = judgePace(state, { wallMs: 250, cpuMs: 50 }, BOUND, true);
    expect(busy).toMatchObject({ kind: "wait", state: { idleMs: 0 } });
    state = busy.state;
    for (let i = 1; i < IDLE_SPAN_MS / 250; i++) state = judgePace(state, window, BOUND, true).state;
    expect(judgePace(state, window, BOUND, true)).toMatchObject({ kind: "fail", reason: "idle" });
  });
  it("keeps waiting while a starved page has used less than its bound at its pace", () => {
    // A third of a core for 10 s of bound: 3.3 s used, and 0.3 s more per second of wall time.
    const verdict = judgePace({ pacedMs: 3333, wallMs: 10_000, idleMs: 0 }, { wallMs: 1000, cpuMs: 333 }, BOUND, true);
    expect(verdict.kind).toBe("wait");
    expect(verdict.state.pacedMs).toBeCloseTo(3666, 0);
    expect(verdict.state.wallMs).toBe(11_000);
  });
  it("fails a page that has spent its whole bound busy, naming the pace when the clock ran longer", () => {
    const verdict = judgePace({ pacedMs: 9800, wallMs: 29_000, idleMs: 0 }, { wallMs: 1000, cpuMs: 400 }, BOUND, true);
    expect(verdict).toMatchObject({ kind: "fail", reason: "busy" });
    expect(paceDetail(verdict as never, "its browser")).toBe(" (at this machine's pace: 30 s on the clock, its browser got 34% of a core)");
    // At full pace the plain message says it all.
    const fast = judgePace({ pacedMs: 10_000, wallMs: 10_000, idleMs: 0 }, { wallMs: 1000, cpuMs: 1900 }, BOUND, true);
    expect(paceDetail(fast as never, "its browser")).toBe("");
  });
  it("never fails a busy ffmpeg before the ceiling, and always at it", () => {
    expect(judgePace({ pacedMs: 50_000, wallMs: 50_000, idleMs: 0 }, { wallMs: 1000, cpuMs: 1000 }, BOUND, false).kind).toBe("wait");
    const verdict = judgePace({ pacedMs: 50_000, wallMs: 99_500, idleMs: 0 }, { wallMs: 1000, cpuMs: 100 }, BOUND, false);
    expect(verdict).toMatchObject({ kind: "fail", reason: "ceiling" });
    expect(paceDetail(verdict as never, "ffmpeg")).toMatch(/^ \(100\.5 s on the clock, the most any machine is given; ffmpeg got \d+% of a core\)$/);
  });
});

/** A probe whose processes use `share` of a core from now on. */
function fakeProbe(share: number | null, busyIsHung = true): PaceProbe {
  const began = performance.now();
  return { cpuMs: () => (share === null ? null : (performance.now() - began) * share), who: "its browser", busyIsHung };
}
const later = <T,>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms));
const outcome = (p: Promise<unknown>) => p.then((v) => v, (e: unknown) => e);

describe("withPacedDeadline", () => {
  it("lets a stage that is slow because the machine is loaded finish", async () => {
    // Twice the bound on the clock, at a quarter of a core: half the bound at the stage's pace.
    const bound = { ms: 400, ceilingMs: 4000, probe: fakeProbe(0.25) };
    expect(await withPacedDeadline(later(800, "frame"), bound, () => "seek did not finish in 0.4 s")).toBe("frame");
  });
  it("fails a stage spinning at full pace at its bound, with the plain message", async () => {
    const began = performance.now();
    const error = await outcome(withPacedDeadline(later(5000, "never"), { ms: 300, ceilingMs: 3000, probe: fakeProbe(1) }, () => "seek did not finish in 0.3 s"));
    expect(error).toBeInstanceOf(StageTimeout);
    expect((error as Error).message).toBe("seek did not finish in 0.3 s");
    expect(performance.now() - began).toBeLessThan(1500);
  });
  it("fails a stage whose processes are idle soon after its bound", async () => {
    const error = await outcome(withPacedDeadline(later(5000, "never"), { ms: 300, ceilingMs: 3000, probe: fakeProbe(0) }, () => "seek did not finish in 0.3 s"));
    expect((error as Error).message).toBe("seek did not finish in 0.3 s (its browser was idle: waiting on something that never came)");
  });
  it("is the fixed bound where the CPU cannot be read", async () => {
    const began = performance.now();
    const error = await outcome(withPacedDeadline(later(5000, "never"), { ms: 300, ceilingMs: 3000, probe: fakeProbe(null) }, () => "seek did not finish in 0.3 s"));
    expect((error as Error).message).toBe("seek did not finish in 0.3 s");
    expect(performance.now() - began).toBeLessThan(1000);
  });
  it("passes a rejection through as is", async () => {
    const error = await outcome(withPacedDeadline(Promise.reject(new Error("page crashed")), { ms: 300, ceilingMs: 3000, probe: fakeProbe(1) }, () => "x"));
    expect((error as Error).message).toBe("page crashed");
  });
});

describe("/proc readers", () => {
  it("parses a stat line whose command holds spaces and parentheses", () => {
    const line = "4242 (chrome (renderer) x) S 4200 4242 4242 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 12 0 500 0 0";
    expect(parseProcStat(line)).toEqual({ pid: 4242, ppid: 4200, ticks: 281 });
  });
  it("sums a process and its descendants", () => {
    const stats = [
      { pid: 1, ppid: 0, ticks: 1000 }, { pid: 10, ppid: 1, ticks: 5 }, { pid: 11, ppid: 10, ticks: 7 }, { pid: 12, ppid: 11, ticks: 3 }, { pid: 20, ppid: 1, ticks: 50 },
    ];
    expect(processTreeCpuMs(10, stats)).toBe(150);
    expect(processTreeCpuMs(99, stats)).toBeNull();
    expect(processTreeCpuMs(undefined, stats)).toBeNull();
  });
  it("reads this process's CPU and the machine's", () => {
    expect(processTreeCpuMs(process.pid)).toBeGreaterThan(0);
    const a = readCpuTimes();
    expect(a).not.toBeNull();
    expect(busyShare(a, { busy: a!.busy + 50, total: a!.total + 100 })).toBe(0.5);
    expect(readCpuTimes(() => "intr 1 2 3")).toBeNull();
  });
});

describe("render timeline", () => {
  it("records overlapping stages in the order they began, with the cores' share busy", () => {
    let now = 0;
    let cpu = { busy: 0, total: 0 };
    const timeline = startTimeline(() => now, () => cpu);
    const endCapture = timeline.begin("capturing");
    now = 500;
    const endMix = timeline.begin("mixing audio");
    now = 1500;
    cpu = { busy: 150, total: 200 };
    endMix();
    now = 2000;
    endCapture();
    endCapture();
    expect(timeline.stages()).toEqual([
      { stage: "capturing", start: 0, end: 2, cpu: 0.75 },
      { stage: "mixing audio", start: 0.5, end: 1.5, cpu: 0.75 },
    ]);
    expect(formatTimeline(timeline.stages())).toBe("capturing 0.0–2.0 s (cpu 75%); mixing audio 0.5–1.5 s (cpu 75%)");
  });
});
