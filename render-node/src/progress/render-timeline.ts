// A render's timeline as data: each stage's start and end (seconds since the render began) and how busy the
// machine's cores were meanwhile. Stages may overlap (the audio is mixed while frames are captured), which is the
// point of showing them: the render reports it (RenderResult.timeline, and one `timeline:` line at the end).
import { busyShare, readCpuTimes, type CpuTimes } from "../system/machine-cpu.ts";

export interface TimelineStage {
  stage: string;
  /** Seconds since the render began. */
  start: number;
  end: number;
  /** Share of all cores busy during the stage, 0 to 1 (the whole machine, other processes included); null if unknown. */
  cpu: number | null;
}

export interface Timeline {
  /** Marks `stage` begun; returns the function that ends it (calling it again does nothing). */
  begin(stage: string): () => void;
  /** Runs `work` as `stage`: begun now, ended when it settles either way. */
  time<T>(stage: string, work: Promise<T> | (() => Promise<T>)): Promise<T>;
  /** The stages ended so far, in the order they began. */
  stages(): TimelineStage[];
}

export function startTimeline(now: () => number = () => performance.now(), cpu: () => CpuTimes | null = readCpuTimes): Timeline {
  const origin = now();
  const ended: (TimelineStage & { order: number })[] = [];
  let order = 0;
  const begin = (stage: string) => {
    const mine = order++;
    const start = now();
    const cpuStart = cpu();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      ended.push({ stage, start: (start - origin) / 1000, end: (now() - origin) / 1000, cpu: busyShare(cpuStart, cpu()), order: mine });
    };
  };
  return {
    begin,
    async time(stage, work) {
      const end = begin(stage);
      try {
        return await (typeof work === "function" ? work() : work);
      } finally {
        end();
      }
    },
    stages: () => ended.toSorted((a, b) => a.order - b.order).map(({ order: _, ...stage }) => stage),
  };
}

/** "capturing 1.2–25.0 s (cpu 97%); joining 25.0–25.4 s (cpu 60%)". Pure. */
export function formatTimeline(stages: readonly TimelineStage[]): string {
  return stages
    .map((s) => `${s.stage} ${s.start.toFixed(1)}–${s.end.toFixed(1)} s${s.cpu === null ? "" : ` (cpu ${Math.round(s.cpu * 100)}%)`}`)
    .join("; ");
}
