// The daily idea bot (run once a day; see bots/README.md for the schedule):
//   STUDIO_URL=https://studio.example.com STUDIO_BOT_KEY=stb_... node bots/daily-idea-bot.ts [--max 3]
// Exit code 0 when the run was recorded, 1 when it could not reach the studio or record the run.
import { runIdeaBot } from "./idea-bot/run-idea-bot.ts";

const baseUrl = (process.env.STUDIO_URL ?? "").replace(/\/+$/, "");
const botKey = process.env.STUDIO_BOT_KEY ?? "";
if (!baseUrl || !botKey) {
  console.error("set STUDIO_URL and STUDIO_BOT_KEY (a bot key from the dashboard, or POST /api/bots)");
  process.exit(2);
}
const maxAt = process.argv.indexOf("--max");
const maxIdeas = maxAt > 0 ? Number(process.argv[maxAt + 1]) : undefined;

try {
  const report = await runIdeaBot({ baseUrl, botKey, maxIdeas });
  for (const action of report.actions) console.log(`${action.kind}: ${action.candidate.title}`);
  console.log(`run recorded: ${baseUrl}/api/research/${report.slug}`);
} catch (err) {
  console.error(`idea bot run failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
