// Render budgets (issue 34, point 4): render-seconds counted per user and per credential (personal token, OAuth
// grant; a session counts only under its user) per UTC day; a render or batch past a budget is refused with 429
// budget_exceeded before anything is queued (no row, no room state, no job, no usage), two racing renders cannot
// both pass, the reservation (the quote's estimate) is replaced by the actual use when the render ends, and an agent
// on MCP gets the same message as its tool error. What a render reserves is its quote's estimate, read here from a
// dry run first (the fitted cost model's: core/render/cost-model-fit.ts), so the budgets are set around it; the test
// that finishes a render runs last, since a finished render moves every later quote by the farm's pace.
import { env } from "cloudflare:test";
import { describe, expect, it, onTestFinished } from "vitest";
import { api, BASE, createProject, json, signIn, type Session } from "./helpers.ts";
import { claim, nodeCall, registerNode } from "./node-helpers.ts";
import { connect, mcp, send, signInPerson } from "./oauth-helpers.ts";
import { usageSchema } from "../../worker/budgets/shapes.ts";

/** The render-seconds a render of `slug` would reserve now: its dry run's estimate. */
async function estimate(token: string, slug: string, body: Record<string, unknown> = { quality: "draft" }): Promise<number> {
  const dry = await json<{ quote: { renderSeconds: number } }>(await api(token, "POST", `/api/projects/${slug}/render`, { ...body, dryRun: true }));
  expect(dry.quote.renderSeconds).toBeGreaterThan(2);
  return dry.quote.renderSeconds;
}
/** Seconds as the refusal's message writes them. */
const inText = (n: number) => `${Math.round(n * 10) / 10} s`;
/** A budget one render fits and two do not. */
const oneAndAHalf = (e: number) => Math.round(e * 15) / 10;

interface UsageAccount {
  kind: string;
  id: string;
  name: string;
  budget: number | null;
  budgetSource: string | null;
  usedToday: number;
  days: { date: string; renderSeconds: number }[];
}

async function usage(token: string) {
  const res = await api(token, "GET", "/api/usage");
  expect(res.status).toBe(200);
  // The answer is what the OpenAPI document declares.
  return usageSchema().parse(await json(res)) as { today: string; resetsAt: string; accounts: UsageAccount[] };
}

const usedBy = (accounts: UsageAccount[], kind: string) => accounts.find((a) => a.kind === kind)?.usedToday;

async function setBudget(token: string, kind: string, id: string, renderSecondsPerDay: number | null) {
  const res = await api(token, "PUT", `/api/budgets/${kind}/${id}`, { renderSecondsPerDay });
  expect(res.status, await res.clone().text()).toBe(200);
}

const count = async (table: "renders" | "jobs" | "render_charges", userId: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).bind(userId).first<{ n: number }>())?.n ?? 0;

/** The next UTC midnight, as the refusal must name it. */
const nextMidnight = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString();
};

const render = (s: Session, slug: string, body: Record<string, unknown> = { quality: "draft" }) => api(s.token, "POST", `/api/projects/${slug}/render`, body);
const cancelAfter = (s: Session, slug: string) => onTestFinished(async () => void (await api(s.token, "DELETE", `/api/projects/${slug}/render`)));

describe("render budgets", { timeout: 30_000 }, () => {
  it("counts a render's estimate against the user and the personal token that started it; a session's only against the user", async () => {
    const s = await signIn("budget-count");
    const { slug } = await createProject(s.token, "count-a");
    cancelAfter(s, slug);
    const e = await estimate(s.token, slug);
    expect((await render(s, slug)).status).toBe(202);
    const after = await usage(s.token);
    expect(usedBy(after.accounts, "user")).toBe(e);
    expect(usedBy(after.accounts, "token")).toBe(e);
    expect(after.accounts.find((a) => a.kind === "user")!.days.at(-1)).toEqual({ date: after.today, renderSeconds: e });

    // The dashboard's session: the user's account only.
    const { slug: other } = await createProject(s.token, "count-b");
    cancelAfter(s, other);
    const res = await api(null, "POST", `/api/projects/${other}/render`, { quality: "draft" }, { Cookie: s.cookie, Origin: BASE });
    expect(res.status, await res.clone().text()).toBe(202);
    const both = await usage(s.token);
    expect(usedBy(both.accounts, "user")).toBeCloseTo(2 * e, 5);
    expect(usedBy(both.accounts, "token")).toBe(e);
  });

  it("refuses a render past the user's budget with 429 naming it and its reset, and changes nothing", async () => {
    const s = await signIn("budget-refuse");
    const { slug: first } = await createProject(s.token, "refuse-a");
    const e = await estimate(s.token, first);
    const limit = oneAndAHalf(e);
    await setBudget(s.token, "user", s.userId, limit);
    cancelAfter(s, first);
    expect((await render(s, first)).status).toBe(202);
    const { slug } = await createProject(s.token, "refuse-b");
    const before = { renders: await count("renders", s.userId), jobs: await count("jobs", s.userId), charges: await count("render_charges", s.userId) };

    const res = await render(s, slug);
    expect(res.status).toBe(429);
    const body = await json<{ error: string; code: string; budget: Record<string, unknown>; retryAfter: number }>(res);
    expect(body.code).toBe("budget_exceeded");
    expect(body.budget).toEqual({ kind: "user", id: s.userId, limit, used: e, estimate: e, resetsAt: nextMidnight() });
    expect(body.error).toContain(`your daily budget is ${inText(limit)} of render time per UTC day, ${inText(e)} used today, this render is estimated at ${inText(e)}`);
    expect(body.error).toContain(`it resets at ${nextMidnight()}`);
    const retryAfter = Number(res.headers.get("Retry-After"));
    expect(retryAfter).toBe(body.retryAfter);
    expect(Math.abs(retryAfter - (Date.parse(nextMidnight()) - Date.now()) / 1000)).toBeLessThan(60);

    // Nothing was queued or stored: no row, no job, no charge, no room state, the same usage.
    expect(await count("renders", s.userId)).toBe(before.renders);
    expect(await count("jobs", s.userId)).toBe(before.jobs);
    expect(await count("render_charges", s.userId)).toBe(before.charges);
    expect(await json(await api(s.token, "GET", `/api/projects/${slug}/render`))).toEqual({ status: "none", recent: [] });
    expect(usedBy((await usage(s.token)).accounts, "user")).toBe(e);
  });

  it("a dry run says whether the render (a batch: its rows together) would fit the budgets now, and reserves nothing", async () => {
    const s = await signIn("budget-dry");
    const { slug } = await createProject(s.token, "dry-a");
    const none = await json<{ budget: unknown }>(await render(s, slug, { dryRun: true, quality: "draft" }));
    expect(none.budget).toEqual({ fits: true, budgets: [], resetsAt: nextMidnight() });
    const limit = oneAndAHalf(await estimate(s.token, slug));
    await setBudget(s.token, "user", s.userId, limit);
    const fits = await json<{ budget: unknown }>(await render(s, slug, { dryRun: true, quality: "draft" }));
    expect(fits.budget).toEqual({ fits: true, budgets: [{ kind: "user", id: s.userId, limit, used: 0, left: limit }], resetsAt: nextMidnight() });
    const batch = await json<{ budget: { fits: boolean } }>(await api(s.token, "POST", `/api/projects/${slug}/batch`, { dryRun: true, rows: [{}, {}] }));
    expect(batch.budget.fits).toBe(false);
    expect(usedBy((await usage(s.token)).accounts, "user")).toBe(0);
  });

  it("two renders that together pass the budget, sent at once: one is admitted, the other refused", async () => {
    const s = await signIn("budget-race");
    const slugs = await Promise.all(["race-a", "race-b"].map(async (name) => (await createProject(s.token, name)).slug));
    const e = await estimate(s.token, slugs[0]!);
    await setBudget(s.token, "user", s.userId, oneAndAHalf(e));
    for (const slug of slugs) cancelAfter(s, slug);
    const statuses = (await Promise.all(slugs.map((slug) => render(s, slug)))).map((res) => res.status).sort();
    expect(statuses).toEqual([202, 429]);
    expect(await count("jobs", s.userId)).toBe(1);
    expect(usedBy((await usage(s.token)).accounts, "user")).toBe(e);
  });

  it("refuses a batch whose rows together pass the budget, before any row is queued", async () => {
    const s = await signIn("budget-batch");
    const { slug } = await createProject(s.token, "batch-a");
    const e = await estimate(s.token, slug, {});
    await setBudget(s.token, "user", s.userId, Math.round(e * 25) / 10);
    const res = await api(s.token, "POST", `/api/projects/${slug}/batch`, { rows: [{}, {}, {}] });
    expect(res.status).toBe(429);
    const body = await json<{ code: string; budget: { estimate: number; used: number } }>(res);
    expect(body).toMatchObject({ code: "budget_exceeded", budget: { used: 0 } });
    expect(body.budget.estimate).toBeCloseTo(3 * e, 5);
    expect(await json(await api(s.token, "GET", `/api/projects/${slug}/batch`))).toEqual({ status: "none" });
    expect(await count("jobs", s.userId)).toBe(0);
    // Two rows fit.
    onTestFinished(async () => void (await api(s.token, "DELETE", `/api/projects/${slug}/batch`)));
    expect((await api(s.token, "POST", `/api/projects/${slug}/batch`, { rows: [{}, {}] })).status).toBe(202);
  });

  it("fails a later batch row that no longer fits, with the budget's message, and a failed render is charged what it used", async () => {
    const key = await registerNode("budget-batch-node");
    const s = await signIn("budget-batch-row");
    const { slug } = await createProject(s.token, "batch-row");
    const e = await estimate(s.token, slug, {});
    expect((await api(s.token, "POST", `/api/projects/${slug}/batch`, { rows: [{ name: "one" }, { name: "two" }] })).status).toBe(202);
    // Below one row's estimate, above what the first row will have used (0.3 s of node time).
    const limit = Math.max(1, Math.round(e * 5) / 10);
    await setBudget(s.token, "user", s.userId, limit);
    const job = await claim(key);
    expect(job).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await nodeCall(key, "POST", `/jobs/${job!.id}/complete`, { ok: false, error: "the composition threw" })).status).toBe(200);
    const batch = await json<{ status: string; rows: { status: string; error: string | null }[] }>(await api(s.token, "GET", `/api/projects/${slug}/batch`));
    expect(batch.rows.map((row) => row.status)).toEqual(["failed", "failed"]);
    expect(batch.rows[1]!.error).toContain(`render budget exceeded: your daily budget is ${inText(limit)} of render time per UTC day`);
    expect(batch.rows[1]!.error).toContain("the row was not rendered");
    // The failed row ran about 0.3 s on its node: that is what it is charged, not its estimate.
    const used = usedBy((await usage(s.token)).accounts, "user")!;
    expect(used).toBeGreaterThanOrEqual(0.3);
    expect(used).toBeLessThan(limit);
    expect(await count("jobs", s.userId)).toBe(1);
  });

});

describe("budgets of a bot key", { timeout: 30_000 }, () => {
  it("its owner sets and removes it; nobody else can, the bot key itself neither; the usage lists it", async () => {
    const owner = await signIn("budget-bot-owner");
    const issued = await json<{ bot: { id: string }; key: string }>(await api(owner.token, "POST", "/api/bots", { name: "nightly" }));
    await setBudget(owner.token, "bot", issued.bot.id, 60);
    const listed = (await usage(owner.token)).accounts.find((a) => a.kind === "bot");
    expect(listed).toMatchObject({ id: issued.bot.id, name: "nightly", budget: 60, budgetSource: "own", usedToday: 0, gone: false });
    const stranger = await signIn("budget-bot-stranger");
    expect((await api(stranger.token, "PUT", `/api/budgets/bot/${issued.bot.id}`, { renderSecondsPerDay: 1e6 })).status).toBe(404);
    expect((await api(issued.key, "PUT", `/api/budgets/bot/${issued.bot.id}`, { renderSecondsPerDay: 1e6 })).status).toBe(401);
    expect((await api(owner.token, "PUT", `/api/budgets/user/${stranger.userId}`, { renderSecondsPerDay: 5 })).status).toBe(404);
    await setBudget(owner.token, "bot", issued.bot.id, null);
    expect((await usage(owner.token)).accounts.find((a) => a.kind === "bot")).toMatchObject({ budget: null, budgetSource: null });
  });
});

describe("budgets of an OAuth grant", { timeout: 30_000 }, () => {
  it("counts an MCP render against the grant, and an agent past the grant's budget gets the refusal as its tool error", async () => {
    const person = await signInPerson("budget-agent");
    const bearer = { Authorization: `Bearer ${person.token}`, "Content-Type": "application/json" };
    const call = (method: string, path: string, body?: unknown) => send(path, { method, headers: bearer, body: body === undefined ? undefined : JSON.stringify(body) });
    const slugs: string[] = [];
    for (const name of ["agent-a", "agent-b"]) slugs.push(((await (await call("POST", "/api/projects", { name })).json()) as { slug: string }).slug);
    for (const slug of slugs) onTestFinished(async () => void (await call("DELETE", `/api/projects/${slug}/render`)));
    const tokens = await connect(person, ["projects:read", "render"], "Budget Agent");
    const e = ((await (await call("POST", `/api/projects/${slugs[0]}/render`, { quality: "draft", dryRun: true })).json()) as { quote: { renderSeconds: number } }).quote.renderSeconds;

    const first = await mcp(tokens.access_token, "tools/call", { name: "render", arguments: { slug: slugs[0], quality: "draft" } });
    expect((first.body.result as { isError?: boolean }).isError).toBeFalsy();
    const listed = (await (await call("GET", "/api/usage")).json()) as { accounts: UsageAccount[] };
    const grant = listed.accounts.find((a) => a.kind === "grant")!;
    expect(grant).toMatchObject({ name: "Budget Agent", usedToday: e, budget: null });
    expect(usedBy(listed.accounts, "user")).toBe(e);
    expect(usedBy(listed.accounts, "token")).toBe(0);

    // Its owner sets the grant's budget: a dry run says the next render would not fit; the render is refused, and
    // the agent reads why.
    const limit = oneAndAHalf(e);
    expect((await call("PUT", `/api/budgets/grant/${grant.id}`, { renderSecondsPerDay: limit })).status).toBe(200);
    const dry = await mcp(tokens.access_token, "tools/call", { name: "render", arguments: { slug: slugs[1], quality: "draft", dryRun: true } });
    const quoted = dry.body.result as { content: { text: string }[]; structuredContent: { budget: { fits: boolean } } };
    expect(quoted.structuredContent.budget.fits).toBe(false);
    expect(quoted.content[0]!.text).toContain(`would be refused now: past a budget (${Math.round((limit - e) * 10) / 10} of ${limit} render-seconds left today on the grant budget`);
    const refused = await mcp(tokens.access_token, "tools/call", { name: "render", arguments: { slug: slugs[1], quality: "draft" } });
    const result = refused.body.result as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    const error = JSON.parse(result.content[0]!.text) as { error: string; code: string };
    expect(error.code).toBe("budget_exceeded");
    expect(error.error).toContain("the budget of the connected app");
    expect(error.error).toContain(`${inText(limit)} of render time per UTC day, ${inText(e)} used today, this render is estimated at ${inText(e)}`);
    expect(error.error).toContain(`it resets at ${nextMidnight()}`);

  });

  it("takes the operator's default for a user with no budget of their own, and a user's own budget may only be lower", async () => {
    const person = await signInPerson("budget-default");
    // A default below any render's estimate (estimate() checks every estimate is over 2 s).
    const settings = { RENDER_SECONDS_PER_DAY: "2" };
    const headers = { Authorization: `Bearer ${person.token}`, "Content-Type": "application/json" };
    const call = (method: string, path: string, body?: unknown) => send(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, undefined, settings);
    const { slug } = (await (await call("POST", "/api/projects", { name: "default-a" })).json()) as { slug: string };
    const res = await call("POST", `/api/projects/${slug}/render`, { quality: "draft" });
    expect(res.status).toBe(429);
    const refused = (await res.json()) as { code: string; budget: { estimate: number } };
    expect(refused).toMatchObject({ code: "budget_exceeded", budget: { kind: "user", limit: 2, used: 0 } });
    expect(refused.budget.estimate).toBeGreaterThan(2);
    const listed = (await (await call("GET", "/api/usage")).json()) as { operatorDefault: number; accounts: UsageAccount[] };
    expect(listed.operatorDefault).toBe(2);
    expect(listed.accounts.find((a) => a.kind === "user")).toMatchObject({ budget: 2, budgetSource: "operator" });
    expect((await call("PUT", `/api/budgets/user/${person.userId}`, { renderSecondsPerDay: 50 })).status).toBe(400);
    expect((await call("PUT", `/api/budgets/user/${person.userId}`, { renderSecondsPerDay: 1 })).status).toBe(200);
  });
});

// Last in the file: its finished render moves every later quote by the farm's pace (worker/renders/recent-throughput.ts).
describe("a render's charge at its end", { timeout: 30_000 }, () => {
  it("replaces the reservation with the actual use when the render ends; a cancelled render that never ran is charged nothing", async () => {
    const key = await registerNode("budget-node");
    const s = await signIn("budget-settle");
    const { slug } = await createProject(s.token, "settle-a");
    const e = await estimate(s.token, slug);
    const started = await json<{ id: string }>(await render(s, slug));
    expect((await claim(key))?.id).toBe(started.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await nodeCall(key, "PUT", `/jobs/${started.id}/output`, new Uint8Array(64), { "Content-Type": "video/mp4" })).status).toBe(200);
    expect((await nodeCall(key, "POST", `/jobs/${started.id}/complete`, { ok: true })).status).toBe(200);
    const done = await json<{ status: string; actual: { renderSeconds: number } }>(await api(s.token, "GET", `/api/projects/${slug}/render`));
    expect(done.status).toBe("done");
    const used = (await usage(s.token)).accounts;
    expect(usedBy(used, "user")).toBe(done.actual.renderSeconds);
    expect(usedBy(used, "token")).toBe(done.actual.renderSeconds);
    expect(done.actual.renderSeconds).toBeLessThan(e);
    // Settled once: the reservation's record is gone, so the end's retries change nothing more.
    expect(await count("render_charges", s.userId)).toBe(0);

    const { slug: other } = await createProject(s.token, "settle-b");
    // Quoted after a render that took far less than its estimate: the farm's pace now shortens the quote.
    const next = await estimate(s.token, other);
    expect(next).toBeLessThan(e);
    expect((await render(s, other)).status).toBe(202);
    expect(usedBy((await usage(s.token)).accounts, "user")).toBeCloseTo(done.actual.renderSeconds + next, 5);
    expect((await api(s.token, "DELETE", `/api/projects/${other}/render`)).status).toBe(200);
    expect(usedBy((await usage(s.token)).accounts, "user")).toBe(done.actual.renderSeconds);
  });
});
