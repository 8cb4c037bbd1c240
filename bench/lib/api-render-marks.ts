// Where a render through the studio's API spends its time: the render node's log lines (each stamped by the node,
// render-node/main.ts), as the bench's studio hands them over, read into moments of the render, in seconds after the
// client's POST. Pure.

/** One line of the node's log as it printed it: `<ISO time> [<job id>] <line>` or `<ISO time> <line>`. */
export interface NodeLine {
  at: number;
  text: string;
}

/** The node's printed lines in `chunk` (one write of its stdout may hold several), with their own time stamps. */
export function readNodeLines(chunk: string): NodeLine[] {
  return chunk.split("\n").flatMap((raw) => {
    const match = /(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z) (?:\[[^\]]*\] )?(.*)$/.exec(raw);
    return match ? [{ at: Date.parse(match[1]!), text: match[2]! }] : [];
  });
}

/** The moments read off the node's lines, in order; the client's own (answered, file) are added by the bench. */
export const NODE_MARKS = [
  ["claimed", /^job \S+: render /],
  ["downloaded", /^downloaded \d+ project files?/],
  ["capturing", /^capturing with /],
  ["last frame", /^frame (\d+)\/\1 /],
  ["uploading", /^uploading output$/],
  ["uploaded", /^uploaded \d+ bytes/],
  ["poster", /^poster: /],
  ["node done", /^job \S+ \(render\) (done|failed)/],
] as const;

export type MarkName = (typeof NODE_MARKS)[number][0] | "answered" | "file";
export type Marks = Partial<Record<MarkName, number>>;

/** Seconds after `postedAt` (epoch ms) of the first line of each mark at or after it. */
export function nodeMarks(lines: readonly NodeLine[], postedAt: number): Marks {
  const marks: Marks = {};
  for (const [name, pattern] of NODE_MARKS) {
    const line = lines.find((l) => l.at >= postedAt && pattern.test(l.text));
    if (line) marks[name] = (line.at - postedAt) / 1000;
  }
  return marks;
}

export const MARK_ORDER: readonly MarkName[] = [...NODE_MARKS.map(([name]) => name), "answered", "file"];

/** "claimed 0.31; downloaded 0.52; ...; file 13.20" (seconds after the POST; a mark not seen is left out). */
export function formatMarks(marks: Marks): string {
  return MARK_ORDER.filter((name) => marks[name] !== undefined).map((name) => `${name} ${marks[name]!.toFixed(2)}`).join("; ");
}
