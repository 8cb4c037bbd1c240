// A reporter for measuring where a run's wall time goes (test/README.md, "How long the suite takes"): one JSON line per
// event, with the wall clock in ms since the run started, into the file `TIMELINE_FILE` names. Not in the default
// reporters: add it for a measuring run,
//
//   TIMELINE_FILE=/tmp/run.jsonl npx vitest run --reporter=default --reporter=./test/timeline-reporter.ts <files>
//   node_modules/.bin/node test/timeline-gaps.ts /tmp/run.jsonl
//
// `run-start` is before the global setups (vitest calls it first), so the first `queued` after it says how long they
// took; each file's `end` carries vitest's own split of its time (setup files, which for the end-to-end files include
// the wait for the one-at-a-time lock; import; tests and hooks).
import { appendFileSync, writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

export interface TimelineEvent {
  /** ms since the run started (this reporter's construction: vitest's start, before its global setups). */
  at: number;
  event: "run-start" | "queued" | "start" | "end" | "run-end";
  project?: string;
  file?: string;
  /** On `end`: vitest's diagnostic of the file, in ms. */
  setupMs?: number;
  importMs?: number;
  testsMs?: number;
  prepareMs?: number;
  environmentMs?: number;
  workerId?: number;
}

export default class TimelineReporter implements Reporter {
  private readonly began = Date.now();
  private readonly path = process.env.TIMELINE_FILE;
  private root = "";

  constructor() {
    if (this.path) writeFileSync(this.path, "");
  }

  onInit(ctx: { config: { root: string } }): void {
    this.root = ctx.config.root;
  }

  private write(event: Omit<TimelineEvent, "at">): void {
    if (!this.path) return;
    appendFileSync(this.path, `${JSON.stringify({ at: Date.now() - this.began, ...event })}\n`);
  }

  private about(module: TestModule) {
    return { project: module.project.name, file: module.moduleId.slice(this.root.length + 1) };
  }

  onTestRunStart(): void {
    this.write({ event: "run-start" });
  }

  onTestModuleQueued(module: TestModule): void {
    this.write({ event: "queued", ...this.about(module) });
  }

  onTestModuleStart(module: TestModule): void {
    this.write({ event: "start", ...this.about(module) });
  }

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    this.write({
      event: "end",
      ...this.about(module),
      setupMs: Math.round(d.setupDuration),
      importMs: Math.round(d.collectDuration),
      testsMs: Math.round(d.duration),
      prepareMs: Math.round(d.prepareDuration),
      environmentMs: Math.round(d.environmentSetupDuration),
      workerId: d.workerId,
    });
  }

  onTestRunEnd(): void {
    this.write({ event: "run-end" });
  }
}
