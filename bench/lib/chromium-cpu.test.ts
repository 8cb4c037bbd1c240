import { describe, expect, it } from "vitest";
import { chromiumCpuByRole, describeCpuPerFrame, type CpuByRole } from "./chromium-cpu.ts";

describe("chromium-cpu", () => {
  it("splits a frame's CPU by role, user+kernel, leaving out roles under 1 ms a frame", () => {
    const before: CpuByRole = new Map([["browser", { userMs: 100, sysMs: 50 }], ["gpu-process", { userMs: 200, sysMs: 100 }]]);
    const after: CpuByRole = new Map([
      ["browser", { userMs: 400, sysMs: 250 }],
      ["gpu-process", { userMs: 800, sysMs: 700 }],
      ["utility", { userMs: 10, sysMs: 0 }],
    ]);
    // 10 frames: browser 30+20, gpu 60+60, utility 1+0 (a role new since `before` counts from zero).
    expect(describeCpuPerFrame(before, after, 10)).toEqual({ total: 171, split: "browser 30+20, gpu 60+60, utility 1+0" });
  });

  it("reads a live process tree from /proc: this process, with no --type, is the browser role", () => {
    const spin = Date.now() + 50;
    while (Date.now() < spin); // some CPU time to read
    const byRole = chromiumCpuByRole(process.pid);
    const own = byRole.get("browser");
    expect(own).toBeDefined();
    expect(own!.userMs + own!.sysMs).toBeGreaterThan(0);
    expect(chromiumCpuByRole(2 ** 22 + 1).size).toBe(0); // above pid_max: no such process
  });
});
