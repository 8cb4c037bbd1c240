// Load generation for benchmarks: `concurrency` workers loop until `total` requests are done; latencies in ms.
export interface Stats {
  p50: number;
  p95: number;
  p99: number;
  rps: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function measure(total: number, concurrency: number, request: () => Promise<Response>): Promise<Stats> {
  const latencies: number[] = [];
  let started = 0;
  const begin = performance.now();
  const worker = async () => {
    while (started < total) {
      started++;
      const t = performance.now();
      const res = await request();
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`benchmark request failed: ${res.status}`);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - begin) / 1000;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), rps: total / seconds };
}

export const ms = (n: number) => `${n.toFixed(1)} ms`;
