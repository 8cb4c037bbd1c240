#!/usr/bin/env node
// studio: the command-line client for the common loop. Run with Node 24 (it strips the types), e.g.
//   node cli/studio.ts login --url https://studio.example.com --token stu_...
//   node cli/studio.ts push ./my-hyperframes-project
//   node cli/studio.ts lint my-project
//   node cli/studio.ts render my-project --quality draft --out video.mp4
// `studio help` lists every command. Exit codes: 0 ok, 1 the studio said no (or lint/render failed), 2 usage.
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import * as z from "zod";
import { describeBytes } from "../core/units/bytes.ts";
import { createClient, encodePath, StudioError, type Client } from "./lib/client.ts";
import { configPath, currentLogin, DEFAULT_URL, forgetLogin, saveLogin } from "./lib/config.ts";
import { followRender } from "./lib/follow-render.ts";
import { BatchStateSchema, NoCurrentRenderSchema, RenderStateSchema, RenderWithLogSchema } from "../core/protocol/render-state.ts";
import { DryRunAnswerSchema } from "../core/protocol/render-quote.ts";
import { describeQuote } from "../core/render/describe-quote.ts";
import { describeFit } from "../core/render/describe-budget-fit.ts";
// The answers below are read with the schemas the Worker declares them with (pure modules: zod and core/ only).
import { lintResult, verdict } from "../worker/checks/shapes.ts";
import { identity } from "../worker/openapi/shapes.ts";
import { createdProject, projectList } from "../worker/projects/shapes.ts";
import { createProgressBar } from "./lib/progress-bar.ts";
import { complain, say, stdout } from "./lib/print.ts";
import { projectFiles, projectName, readProjectFile, slugify } from "./lib/project-folder.ts";
import { readVariablesFlags, VariablesFlagError } from "./lib/read-variables.ts";
import { BatchFileError, readBatchFile } from "./lib/read-batch.ts";
import { followBatch, rowLine } from "./lib/follow-batch.ts";


const HELP = `studio: make videos with Studio from the command line

  studio login [--url URL] [--token TOKEN]   save your token (from the dashboard, or STUDIO_TOKEN) after checking it
  studio logout                              forget the saved token
  studio whoami                              who the token belongs to, and their storage against its quota
  studio projects                            list your projects
  studio create NAME [--duration SECONDS]    a new project with a starter composition
  studio push [FOLDER] [--project SLUG]      upload a folder (a HyperFrames project works as it is); creates the
                                             project (named by hyperframes.json, else the folder) if needed
  studio lint SLUG                           lint; exit 1 on errors
  studio render SLUG [--quality draft|standard|high] [--format mp4|webm|mov|gif|png-sequence] [--fps N]
                     [--resolution R] [--crf N | --video-bitrate 10M] [--gif-loop N] [--strict] [--out FILE]
                                             render with a live progress bar; --out downloads the video
                                             (a png-sequence: a .zip of PNG frames)
                     [--from T] [--to T]     render only that part: seconds (40, 2.5) or frames (1200f)
                     [--dry-run]             print the render's quote (frames, size, estimated seconds, queue
                                             place) and start nothing
                     [--variables JSON | --variables-file PATH] [--strict-variables]
                                             values over the composition's declared data-composition-variables
                                             defaults (a JSON object keyed by id); --strict-variables refuses
                                             undeclared keys and wrong types instead of warning
  studio render SLUG --batch ROWS.json [--out DIR] [render options]
                                             one video per row of variables, one after another (HyperFrames'
                                             --batch file: a JSON array of rows, or { "rows": [...] }; a row is
                                             { "variables": {...}, "name"?: "..." } or the variables themselves);
                                             prints each row's outcome; --out downloads every done row into DIR;
                                             exit 1 unless every row is done
  studio download SLUG|FILENAME [--out FILE]  the project's last rendered video, or a render by file name

The token is read from STUDIO_TOKEN, else from ${configPath()}; the studio's address from STUDIO_URL, else the
saved one, else ${DEFAULT_URL}.`;

class UsageError extends Error {}

function need(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

function client(): Client {
  const login = currentLogin();
  if (!login.token) throw new UsageError("not logged in: run `studio login --token <token>` or set STUDIO_TOKEN");
  return createClient(login.url!, login.token);
}

async function login(flags: { url?: string; token?: string }): Promise<void> {
  const url = (flags.url ?? currentLogin().url ?? DEFAULT_URL).replace(/\/+$/, "");
  let token = flags.token ?? process.env.STUDIO_TOKEN;
  if (!token) {
    stdout.prompt(`Sign in at ${url}/ and paste your token: `);
    token = readFileSync(0, "utf8").split(/\r?\n/)[0]?.trim();
  }
  const me = await createClient(url, need(token, "token")).read(identity(), "GET", "/api/me");
  const path = saveLogin({ url, token: token! });
  say(`logged in to ${url} as ${me.user.name} (token saved in ${path})`);
}

async function push(folder: string, flags: { project?: string }): Promise<void> {
  const api = client();
  const root = resolve(folder);
  const { files, skipped } = projectFiles(root);
  for (const line of skipped) say(line);
  if (!files.includes("index.html")) throw new UsageError(`${root} has no index.html`);
  const name = flags.project ?? projectName(root);
  let slug = slugify(name);
  try {
    const created = await api.read(createdProject(), "POST", "/api/projects", { name, createdBy: "studio-cli" });
    slug = created.slug;
    say(`created project ${slug}`);
  } catch (err) {
    if (!(err instanceof StudioError && err.status === 409)) throw err;
    say(`updating project ${slug}`);
  }
  let bytes = 0;
  for (const path of files) {
    const body = readProjectFile(root, path);
    await api.request("PUT", `/api/projects/${slug}/files/${encodePath(path)}`, new Uint8Array(body));
    bytes += body.byteLength;
    say(`  ${path} (${body.byteLength} bytes)`);
  }
  say(`pushed ${files.length} files, ${bytes} bytes, to ${api.url}/api/projects/${slug}`);
}

async function lint(slug: string): Promise<number> {
  const answer = await client().read(verdict(lintResult()), "POST", `/api/projects/${slug}/lint`, {});
  for (const f of answer.result.findings) {
    say(`${f.severity.padEnd(7)} ${f.file}: ${f.code}: ${f.message}${f.fixHint ? `\n        fix: ${f.fixHint}` : ""}`);
  }
  say(`${answer.result.errorCount} errors, ${answer.result.warningCount} warnings`);
  return answer.ok ? 0 : 1;
}

async function download(api: Client, downloadUrl: string, out: string | undefined, fallbackName: string): Promise<void> {
  const res = await api.request("GET", `${downloadUrl}?download`);
  // The studio names the file; only its last part is used, so the video lands in the current folder.
  const file = resolve(out ?? basename(fallbackName));
  await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
  say(`downloaded ${file}`);
}

/** --from/--to as the API spells them: seconds as a number, anything else ("1200f") as given (the studio checks it). */
function rangeOptions(flags: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const point = (text: string) => (/^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text);
  const range: Record<string, unknown> = {};
  if (typeof flags.from === "string") range.from = point(flags.from);
  if (typeof flags.to === "string") range.to = point(flags.to);
  return range;
}

/** The render options every row of a batch shares, from the flags. */
function sharedOptions(flags: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const key of ["quality", "format", "resolution", "fps"] as const) if (flags[key] !== undefined) options[key] = flags[key];
  if (flags.strict) options.strict = true;
  if (flags["strict-variables"]) options.strictVariables = true;
  return { ...options, ...rangeOptions(flags) };
}

async function renderBatch(slug: string, file: string, flags: Record<string, string | boolean | undefined>): Promise<number> {
  if (flags.variables !== undefined || flags["variables-file"] !== undefined) throw new UsageError("--batch gives each row its variables: leave out --variables and --variables-file");
  let body: Record<string, unknown>;
  try {
    body = readBatchFile(file, sharedOptions(flags)).body;
  } catch (error) {
    if (error instanceof BatchFileError) throw new UsageError(error.message);
    throw error;
  }
  const api = client();
  const started = await api.read(BatchStateSchema, "POST", `/api/projects/${slug}/batch`, body);
  say(`batch ${started.id}: ${started.rows.length} rows, ${started.status}`);
  const final = await followBatch(api, slug, started.id, (line) => say(`  ${line}`));
  const done = final.rows.filter((row) => row.status === "done");
  say(`batch ${final.status}: ${done.length} of ${final.rows.length} rows done`);
  for (const row of final.rows.filter((r) => r.status !== "done")) say(`  ${rowLine(row)}`);
  if (typeof flags.out === "string") {
    mkdirSync(flags.out, { recursive: true });
    for (const row of done) if (row.downloadUrl && row.filename) await download(api, row.downloadUrl, join(flags.out, basename(row.filename)), row.filename);
  } else {
    for (const row of done) say(`download: studio download ${row.filename}`);
  }
  return final.status === "done" ? 0 : 1;
}

async function render(slug: string, flags: Record<string, string | boolean | undefined>): Promise<number> {
  if (typeof flags.batch === "string") return renderBatch(slug, flags.batch, flags);
  const options: Record<string, unknown> = {};
  const text = (value: string | boolean | undefined) => (typeof value === "string" ? value : undefined);
  try {
    const variables = readVariablesFlags(text(flags.variables), text(flags["variables-file"]));
    if (variables) options.variables = variables;
  } catch (error) {
    if (error instanceof VariablesFlagError) throw new UsageError(error.message);
    throw error;
  }
  if (flags["strict-variables"]) options.strictVariables = true;
  const api = client();
  for (const key of ["quality", "format", "resolution", "fps"] as const) if (flags[key] !== undefined) options[key] = flags[key];
  // HyperFrames' flag names; a number where the API wants one, else the text as given (the studio says what is wrong).
  const asNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) : text);
  if (typeof flags.crf === "string") options.crf = asNumber(flags.crf);
  if (typeof flags["video-bitrate"] === "string") options.videoBitrate = flags["video-bitrate"];
  if (typeof flags["gif-loop"] === "string") options.gifLoop = asNumber(flags["gif-loop"]);
  Object.assign(options, rangeOptions(flags));
  if (flags.strict) options.strict = true;
  if (flags["dry-run"]) {
    const answer = await api.read(DryRunAnswerSchema, "POST", `/api/projects/${slug}/render`, { ...options, dryRun: true });
    say(`quote: ${describeQuote(answer.quote)}`);
    say(`budget: ${describeFit(answer.budget)}`);
    return 0;
  }
  const started = await api.read(RenderStateSchema, "POST", `/api/projects/${slug}/render`, options);
  say(`render ${started.filename} ${started.status}`);
  const bar = createProgressBar(stdout);
  // On a terminal the bar alone; in a log (not a TTY) the render's own lines too, as they stream in.
  const onLine = (line: string) => {
    if (!stdout.isTTY) say(`  | ${line}`);
  };
  const final = await followRender(api, slug, started.id, (p) => bar.update(p), onLine);
  if (final.status === "done") bar.update({ percent: 100, frame: final.progress?.total, total: final.progress?.total });
  bar.done();
  say(final.lastLine.startsWith(`render ${final.status}`) ? final.lastLine : `render ${final.status}: ${final.lastLine}`);
  if (final.status !== "done") {
    for (const line of (final.lines ?? []).slice(-15)) say(`  ${line}`);
    return 1;
  }
  if (flags.out !== undefined && final.downloadUrl) await download(api, final.downloadUrl, String(flags.out), final.filename);
  else say(`download: studio download ${final.filename}`);
  return 0;
}

async function downloadCommand(target: string, out: string | undefined): Promise<void> {
  const api = client();
  if (/\.(mp4|webm|mov|gif|zip)$/.test(target)) return download(api, `/renders/${encodeURIComponent(target)}`, out, target);
  const state = await api.read(z.union([RenderWithLogSchema, NoCurrentRenderSchema]), "GET", `/api/projects/${target}/render`);
  if (state.status === "none" || !state.downloadUrl) throw new StudioError(404, { error: `project ${target} has no rendered video to download (status ${state.status})` });
  return download(api, state.downloadUrl, out, state.filename);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: "string" },
      token: { type: "string" },
      duration: { type: "string" },
      project: { type: "string" },
      quality: { type: "string" },
      format: { type: "string" },
      fps: { type: "string" },
      resolution: { type: "string" },
      crf: { type: "string" },
      "video-bitrate": { type: "string" },
      "gif-loop": { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      strict: { type: "boolean" },
      variables: { type: "string" },
      "variables-file": { type: "string" },
      "strict-variables": { type: "boolean" },
      "dry-run": { type: "boolean" },
      batch: { type: "string" },
      out: { type: "string", short: "o" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, arg] = positionals;
  if (!command || command === "help" || values.help) {
    say(HELP);
    return 0;
  }
  switch (command) {
    case "login":
      await login(values);
      return 0;
    case "logout":
      forgetLogin();
      say("logged out");
      return 0;
    case "whoami": {
      const me = await client().read(identity(), "GET", "/api/me");
      say(`${me.user.name} (${me.user.id}) on ${me.baseUrl}`);
      const { used, limit, files, fileLimit } = me.storage;
      say(`storage: ${describeBytes(used)} of ${describeBytes(limit)}, ${files} of ${fileLimit} files`);
      return 0;
    }
    case "projects": {
      const { projects } = await client().read(projectList(), "GET", "/api/projects");
      // A composition whose root has no readable duration has none (null): shown as "?".
      for (const p of projects) say(`${p.name}\t${p.duration ?? "?"}s\t${p.render?.status ?? "never rendered"}`);
      return 0;
    }
    case "create": {
      const body: Record<string, unknown> = { name: need(arg, "project name"), createdBy: "studio-cli" };
      if (values.duration) body.duration = Number(values.duration);
      const created = await client().read(createdProject(), "POST", "/api/projects", body);
      say(`created project ${created.slug}`);
      return 0;
    }
    case "push":
      await push(arg ?? ".", values);
      return 0;
    case "lint":
      return lint(need(arg, "project slug"));
    case "render":
      return render(need(arg, "project slug"), values);
    case "download":
      await downloadCommand(need(arg, "project slug or render file name"), values.out);
      return 0;
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    complain(`studio: ${(err as Error).message}\n\n${HELP}`);
    process.exitCode = 2;
  } else if (err instanceof StudioError) {
    complain(`studio: ${err.message} (HTTP ${err.status})`);
    process.exitCode = 1;
  } else {
    complain(`studio: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
