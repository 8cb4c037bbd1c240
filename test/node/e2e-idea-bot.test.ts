// The daily idea bot (bots/daily-idea-bot.ts) run as a process, with its own bot key, against the real Worker
// (wrangler dev): it reads a research record's open questions, votes for the one the board already has (posted by
// someone else) instead of posting it, posts the others as the bot, and records its run as a research record; a
// second run the same day posts nothing and takes no vote back.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/wrangler.ts";
import { signInToSharedStudio, type SharedSignedIn } from "./shared-studio.ts";

let s: SharedSignedIn;
let botKey = "";
let otherToken = "";
let existingId = 0;

interface Idea {
  id: number;
  title: string;
  source: string | null;
  votes: number;
  author?: unknown;
}

function runBot(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "bots", "daily-idea-bot.ts")], {
      env: { ...process.env, STUDIO_URL: s.url, STUDIO_BOT_KEY: botKey },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

async function ideas(): Promise<Idea[]> {
  const res = await fetch(`${s.url}/api/ideas?sort=new&limit=100`);
  return ((await res.json()) as { ideas: Idea[] }).ideas;
}

beforeAll(async () => {
  s = await signInToSharedStudio("idea-bot-owner");
  botKey = ((await (await s.call("POST", "/api/bots", { name: "Daily idea bot" })).json()) as { key: string }).key;
  const other = await fetch(`${s.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "idea-bot-researcher" }) });
  otherToken = ((await other.json()) as { token: string }).token;
  const posted = await s.call("POST", "/api/ideas", { title: "Waveform view for audio tracks in the editor", body: "Show each audio track's waveform under the timeline so people can place cues." }, otherToken);
  expect(posted.status).toBe(201);
  existingId = ((await posted.json()) as { idea: Idea }).idea.id;
  // Research records are written by bots: the researcher's own bot writes one with open questions.
  const researchBot = ((await (await s.call("POST", "/api/bots", { name: "research notes" }, otherToken)).json()) as { key: string }).key;
  const record = await s.call(
    "PUT",
    "/api/research/player-study",
    {
      name: "Player study",
      body_md: [
        "# What we saw", "- People scrub a lot.",
        "## Open questions",
        "- Waveform view for audio tracks in the editor? Show each audio track's waveform under the timeline so people can place cues.",
        "- Keyboard shortcuts for frame stepping in the player, so reviewers can check a cut frame by frame.",
        "- Loop a selected range of the timeline while editing a composition.",
      ].join("\n"),
    },
    researchBot,
  );
  expect(record.status).toBe(201);
}, 180_000);

describe("the daily idea bot", () => {
  it("votes for the existing idea instead of posting it, posts the new ones as the bot, and records its run", async () => {
    const before = (await ideas()).find((i) => i.id === existingId)!;
    const run = await runBot();
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain("voted: Waveform view for audio tracks in the editor");
    const after = await ideas();
    expect(after.find((i) => i.id === existingId)!.votes).toBe(before.votes + 1);
    expect(after.filter((i) => /waveform/i.test(i.title))).toHaveLength(1);
    const mine = after.filter((i) => i.source === "research:player-study");
    expect(mine.map((i) => i.title).sort()).toEqual([
      "Keyboard shortcuts for frame stepping in the player, so reviewers can check a cut frame by frame",
      "Loop a selected range of the timeline while editing a composition",
    ]);
    expect(JSON.stringify(mine[0])).toContain("Daily idea bot");
    const day = new Date().toISOString().slice(0, 10);
    const log = (await (await fetch(`${s.url}/api/research/idea-bot-run-${day}`)).json()) as { kind: string; summary: string; lines: string[] };
    expect(log.kind).toBe("bot-run");
    expect(log.summary).toMatch(/^2 posted, 1 voted, 0 already voted, 0 proposed before, 0 failed/);
    expect(log.lines.join("\n")).toContain(`voted for existing idea #${existingId}`);
  }, 60_000);

  it("a second run posts nothing, votes for nothing it proposed itself, and takes no vote back (votes toggle, so it checks first)", async () => {
    const before = await ideas();
    const run = await runBot();
    expect(run.code, run.out).toBe(0);
    const after = await ideas();
    expect(after).toHaveLength(before.length);
    expect(after.find((i) => i.id === existingId)!.votes).toBe(before.find((i) => i.id === existingId)!.votes);
    const day = new Date().toISOString().slice(0, 10);
    const log = (await (await fetch(`${s.url}/api/research/idea-bot-run-${day}`)).json()) as { summary: string };
    expect(log.summary).toMatch(/^0 posted, 0 voted, 1 already voted, 2 proposed before, 0 failed/);
  }, 60_000);

  it("refuses to start without its key", async () => {
    const child = spawn(process.execPath, [join(ROOT, "bots", "daily-idea-bot.ts")], { env: { ...process.env, STUDIO_URL: s.url, STUDIO_BOT_KEY: "" } });
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(code).toBe(2);
  });
});
