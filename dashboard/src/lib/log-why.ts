// Failures nobody has to act on (a hint that did not arrive, a best-effort beacon, storage the browser refuses):
// the page goes on without them, and says why in the console, so whoever looks there sees what went wrong instead
// of nothing. A failure the person would notice is shown on the page instead (ErrorNote, a note beside what is missing).
export function logWhy(what: string, error: unknown): void {
  console.warn(`studio: ${what}`, error);
}
