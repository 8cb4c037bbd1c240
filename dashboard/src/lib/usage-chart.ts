// The geometry of the usage chart (components/usage-panel.tsx): one bar per UTC day, scaled so the tallest bar and
// the budget line both fit, with a few round gridline values. Pure, so it is tested without a browser.

export interface ChartDay {
  date: string;
  renderSeconds: number;
}

export interface ChartBar extends ChartDay {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface UsageChart {
  width: number;
  height: number;
  bars: ChartBar[];
  /** The budget's line (y), or null when there is no budget. */
  budgetY: number | null;
  /** Gridlines: their value in seconds and their y. */
  ticks: { value: number; y: number }[];
}

/** A round step (1, 2 or 5 times a power of ten) that splits `max` into about `count` parts. */
export function niceStep(max: number, count = 4): number {
  const rough = Math.max(max, 1) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].find((m) => m * power >= rough)! * power;
  return step;
}

export function usageChart(days: readonly ChartDay[], budget: number | null, size = { width: 600, height: 160 }): UsageChart {
  const { width, height } = size;
  const top = Math.max(budget ?? 0, ...days.map((d) => d.renderSeconds), 1);
  const step = niceStep(top);
  const scaleMax = Math.ceil(top / step) * step;
  const yOf = (value: number) => height - (value / scaleMax) * height;
  const slot = width / Math.max(days.length, 1);
  const bars = days.map((day, i) => {
    const barHeight = (day.renderSeconds / scaleMax) * height;
    return { ...day, x: i * slot + slot * 0.15, width: slot * 0.7, y: height - barHeight, height: barHeight };
  });
  const ticks = Array.from({ length: Math.round(scaleMax / step) + 1 }, (_, i) => ({ value: i * step, y: yOf(i * step) }));
  return { width, height, bars, budgetY: budget === null ? null : yOf(budget), ticks };
}
