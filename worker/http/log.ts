// The Worker's one way to write a log line: one JSON object per line, which Workers Logs indexes field by field.
// Fields are data, never secrets: no tokens, no cookies, no raw user ids (callers pass what they mean to keep).

export type LogLevel = "info" | "warn" | "error";

/** Writes `event` with its fields as one JSON line; an Error is kept as its name, message and stack. */
export function logEvent(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
  const line: Record<string, unknown> = { level, event };
  for (const [key, value] of Object.entries(fields)) {
    line[key] = value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
  }
  const text = JSON.stringify(line);
  if (level === "error") console.error(text);
  else if (level === "warn") console.warn(text);
  else console.log(text);
}
