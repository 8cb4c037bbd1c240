// One run of the daily idea bot against a studio: read the research records, take up to `maxIdeas` candidates,
// check each for a duplicate first (POST /api/ideas/check); a duplicate gets the bot's vote (unless its person has
// already voted, since a vote toggles); anything else is posted, and a 409 on posting (a duplicate the check did not
// see) also becomes a vote for the existing idea. The run is written as a research record of kind "bot-run", so
// every run is visible on the board's research list.
import { findCandidates, type Candidate, type ResearchRecord } from "./find-candidates.ts";
import { attemptAsync } from "../../core/parse-text.ts";

export const RUN_KIND = "bot-run";

interface Idea {
  id: number;
  title: string;
  voted: boolean;
  source?: string | null;
}

export type Action =
  | { kind: "posted"; idea: Idea; candidate: Candidate }
  | { kind: "voted"; idea: Idea; candidate: Candidate; via: "check" | "409" }
  | { kind: "already-voted"; idea: Idea; candidate: Candidate }
  | { kind: "already-proposed"; idea: Idea; candidate: Candidate }
  | { kind: "failed"; candidate: Candidate; error: string };

export interface RunOptions {
  baseUrl: string;
  botKey: string;
  /** New ideas proposed per run at most (default 3). */
  maxIdeas?: number;
  now?: Date;
  fetch?: typeof fetch;
}

export interface RunReport {
  slug: string;
  actions: Action[];
  candidates: number;
}

class StudioError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    super(`${status}: ${String(body.error ?? "error")}`);
    this.status = status;
    this.body = body;
  }
}

export async function runIdeaBot(options: RunOptions): Promise<RunReport> {
  const send = options.fetch ?? fetch;
  const now = options.now ?? new Date();
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await send(`${options.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${options.botKey}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // A body that is not JSON (a proxy's error page) is an empty one: a failed status is still the StudioError below,
    // and a 2xx without JSON is answered as no fields rather than a crash mid-run.
    const answer = await attemptAsync(() => res.json() as Promise<unknown>);
    const parsed = (answer.ok ? answer.value : {}) as Record<string, unknown>;
    if (!res.ok) throw new StudioError(res.status, parsed);
    return parsed as T;
  }
  const vote = async (idea: Idea, candidate: Candidate, via: "check" | "409"): Promise<Action> => {
    // The bot's own earlier proposal (same source): it does not vote for itself.
    if (idea.source === candidate.source) return { kind: "already-proposed", idea, candidate };
    if (idea.voted) return { kind: "already-voted", idea, candidate };
    await call("POST", `/api/ideas/${idea.id}/vote`);
    return { kind: "voted", idea, candidate, via };
  };

  const { records } = await call<{ records: ResearchRecord[] }>("GET", "/api/research");
  const candidates = findCandidates(records, RUN_KIND);
  const actions: Action[] = [];
  let posted = 0;
  for (const candidate of candidates) {
    if (posted >= (options.maxIdeas ?? 3)) break;
    try {
      const check = await call<{ duplicate: boolean; similar: Array<{ idea: Idea }> }>("POST", "/api/ideas/check", { title: candidate.title, body: candidate.body });
      const existing = check.duplicate ? check.similar[0]?.idea : undefined;
      if (existing) {
        // An idea the board already has costs no posting slot: vote (once) and move on.
        actions.push(await vote(existing, candidate, "check"));
        continue;
      }
      try {
        const created = await call<{ idea: Idea }>("POST", "/api/ideas", { ...candidate, name: "Daily idea bot" });
        actions.push({ kind: "posted", idea: created.idea, candidate });
        posted++;
      } catch (err) {
        if (!(err instanceof StudioError) || err.status !== 409 || !err.body.idea) throw err;
        actions.push(await vote(err.body.idea as Idea, candidate, "409"));
      }
    } catch (err) {
      actions.push({ kind: "failed", candidate, error: err instanceof Error ? err.message : String(err) });
    }
  }
  const slug = `idea-bot-run-${now.toISOString().slice(0, 10)}`;
  await call("PUT", `/api/research/${slug}`, runRecord(now, candidates.length, actions));
  return { slug, actions, candidates: candidates.length };
}

function describe(action: Action): string {
  const title = JSON.stringify(action.candidate.title);
  switch (action.kind) {
    case "posted":
      return `posted idea #${action.idea.id} ${title} (from ${action.candidate.source})`;
    case "voted":
      return `voted for existing idea #${action.idea.id} ${JSON.stringify(action.idea.title)} instead of posting ${title} (${action.via === "409" ? "409 on posting" : "duplicate check"})`;
    case "already-voted":
      return `idea #${action.idea.id} ${JSON.stringify(action.idea.title)} already has this bot's vote; skipped ${title}`;
    case "already-proposed":
      return `idea #${action.idea.id} ${title} was proposed from the same source on an earlier run; skipped`;
    case "failed":
      return `could not propose ${title}: ${action.error}`;
  }
}

function runRecord(now: Date, candidates: number, actions: Action[]) {
  const lines = actions.map(describe);
  const count = (kind: Action["kind"]) => actions.filter((a) => a.kind === kind).length;
  const summary = `${count("posted")} posted, ${count("voted")} voted, ${count("already-voted")} already voted, ${count("already-proposed")} proposed before, ${count("failed")} failed, from ${candidates} candidates`;
  return {
    kind: RUN_KIND,
    name: `Daily idea bot run ${now.toISOString().slice(0, 10)}`,
    summary,
    body_md: `Run at ${now.toISOString()}. Source: the open questions, ideas and next steps of the studio's research records.\n\n${
      lines.length ? lines.map((l) => `- ${l}`).join("\n") : "- nothing to propose"
    }\n`,
    lines: lines.slice(0, 50).map((l) => l.slice(0, 500)),
  };
}
