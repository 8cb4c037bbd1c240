// The documents generated from the Worker's configuration schema (worker/config/settings.ts): docs/configuration.md,
// which the deploy guide links to, and .dev.vars.example. Pure: scripts/config-docs.ts writes them and
// test/node/config-docs.test.ts fails when the committed files differ.
import { SETTING_RULES } from "../../worker/config/setting-rules.ts";
import { BINDINGS, SETTINGS, type BindingSpec, type SettingSpec } from "../../worker/config/settings.ts";

export const CONFIGURATION_DOC = "docs/configuration.md";
export const DEV_VARS_EXAMPLE = ".dev.vars.example";

const settings = Object.entries(SETTINGS) as [string, SettingSpec][];
const bindings = Object.entries(BINDINGS) as [string, BindingSpec][];

/** A Markdown table cell: no line breaks, and a pipe that does not end the cell. */
const cell = (text: string) => text.replace(/\s+/g, " ").replace(/\|/g, "\\|");

/** The default column: the value as written, what it means, or what applies when there is none. */
function defaultOf(spec: SettingSpec): string {
  if (spec.required) return "required";
  if (spec.default === undefined) return spec.defaultNote ?? "unset";
  const written = spec.default === "" ? "empty" : `\`${spec.default}\``;
  return spec.defaultNote ? `${written} (${spec.defaultNote})` : written;
}

/** The meaning column: the description, what a value must be, and an older name still read. */
function meaningOf(spec: SettingSpec): string {
  const former = spec.formerName ? ` Formerly \`${spec.formerName}\`, still read when this is unset.` : "";
  return `${spec.description} Value: ${spec.type.description ?? "text"}.${former}`;
}

/** docs/configuration.md: every setting, secret and binding, how to set them and what a bad value does. */
export function renderConfigurationDoc(): string {
  const rows = [
    ...settings.map(([name, spec]) => `| \`${name}\` | ${spec.kind} | ${cell(defaultOf(spec))} | ${cell(meaningOf(spec))} |`),
    ...bindings.map(([name, spec]) => `| \`${name}\` | binding | ${spec.required ? "required" : "optional"} | ${cell(`${spec.description} Declared in wrangler.toml: ${spec.declaredBy}.`)} |`),
  ];
  return `# Configuration

<!-- Generated from worker/config/settings.ts by \`npm run config:docs\`; test/node/config-docs.test.ts fails when
this file differs from what the schema generates. Edit the schema, then run the script. -->

Every variable, secret and binding the Studio Worker reads. One schema (\`worker/config/settings.ts\`) holds each
one's kind of value, limits, default and meaning; the Worker parses them once per isolate (\`configOf\`,
\`worker/config/config-of.ts\`) and nothing else in it reads the environment.

- **var**: plain configuration, in \`wrangler.toml\` (\`[vars]\`, \`[env.production] vars\`) or \`--var NAME:value\` on
  \`wrangler dev\`.
- **secret**: \`wrangler secret put NAME --env production\`; for a local \`wrangler dev\`, in \`.dev.vars\` (start from
  \`.dev.vars.example\`). \`npm start\` passes \`TOKEN_SECRET\` (kept in \`.data/secrets.json\`), \`DEV_LOGIN=true\`,
  \`BASE_URL\` and \`CONTENT_URL\` itself, and \`ADMIN_USER_IDS\` and \`WEBHOOK_ALLOWED_HOSTS\` from its own environment.
- **binding**: declared in \`wrangler.toml\`; checked for presence, never parsed.

An empty value counts as unset. A value that does not fit is never replaced by the default: the Worker refuses
to serve. Every request then answers \`500 { "error": "server misconfigured: <SETTING>: <problem>", "code":
"misconfigured" }\`, for example \`server misconfigured: MAX_STORAGE_BYTES: expected a positive integer number of
bytes, got "5GB"\`; \`GET /api/health\` answers the same with \`ok: false\`, the \`problems\` one by one and the
build, so a deploy that checks its health sees it at once; each such request writes a \`misconfigured\` log line
naming the problems (Workers Logs); the hourly housekeeping does nothing. Secrets are never shown, only their
length.

| name | kind | default | meaning |
|---|---|---|---|
${rows.join("\n")}

Rules between settings, checked like each setting:

${SETTING_RULES.map((r) => `- ${r.rule}`).join("\n")}
`;
}

/** Wraps a comment to lines of at most 116 characters, each starting with "# ". */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = "#";
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > 116 && line !== "#") {
      lines.push(line);
      line = "#";
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** One setting's entry: what it is and its default, then the line to uncomment. */
function entry(name: string, spec: SettingSpec): string[] {
  const value = spec.example ?? spec.default ?? "";
  const state = spec.required ? "Required." : `Default: ${defaultOf(spec).replace(/`/g, "")}.`;
  return [...comment(`${name}: ${spec.description} ${state}`), `# ${name}=${value}`, ""];
}

/** .dev.vars.example: the secrets and vars an operator sets, each commented out with its meaning and default. */
export function renderDevVarsExample(): string {
  const of = (kind: SettingSpec["kind"]) => settings.filter(([, spec]) => spec.kind === kind).flatMap(([name, spec]) => entry(name, spec));
  return [
    ...comment(
      "The Studio Worker's secrets and settings, for a local `wrangler dev`: copy this file to .dev.vars (git-ignored) and uncomment what you set. " +
        "`npm start` needs none of it (it passes TOKEN_SECRET, DEV_LOGIN, BASE_URL and CONTENT_URL itself). In production set secrets with " +
        "`wrangler secret put NAME --env production` and vars in wrangler.toml's [env.production] vars. Limits and meanings: docs/configuration.md.",
    ),
    "# Generated from worker/config/settings.ts by `npm run config:docs`; edit the schema, not this file.",
    "",
    "# ── Secrets ──",
    "",
    ...of("secret"),
    "# ── Vars ──",
    "",
    ...of("var"),
  ]
    .join("\n")
    .replace(/\n+$/, "\n");
}
