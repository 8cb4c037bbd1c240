// The Worker's configuration schema: every variable and secret it reads, with its kind of value, its default (this
// is the one place defaults live), its limits and a one-line meaning, and every binding it needs. configOf
// (config-of.ts) parses an environment against it once; docs/configuration.md and .dev.vars.example are generated
// from it (`npm run config:docs`). Pure: Node scripts import it too.
import { COMPOSITION_LIMITS } from "../../core/composition/composition-limits.ts";
import { parseAllowedHost } from "../net/allowed-hosts.ts";
import { commaList, duration, flag, nonNegativeNumberEntry, origin, positiveNumber, text, wholeNumber, type ValueKind } from "./value-kinds.ts";

export interface SettingSpec {
  /** A var is plain configuration (wrangler.toml `vars`, `--var`); a secret is set with `wrangler secret put`. */
  kind: "var" | "secret";
  /** From the variable's text to its value; its issues say what was expected and what came. */
  type: ValueKind<unknown>;
  /** The value when unset or empty, written as an operator would write it and parsed like one. */
  default?: string;
  /** What the default means when its text alone does not say it, or what applies when there is none. */
  defaultNote?: string;
  /** Unset is an error: the Worker cannot serve without it. */
  required?: true;
  /** An older name, still read when this one is unset. */
  formerName?: string;
  /** One line for the docs. */
  description: string;
  /** An example value for .dev.vars.example, where the default is no good example. */
  example?: string;
}

const positiveInt = (unit: string) => wholeNumber({ min: 1, expected: `a positive integer number of ${unit}` });
const atLeast = (min: number, unit: string) => wholeNumber({ min, expected: `a whole number of ${unit}, at least ${min}` });
const instances = (min: number) => wholeNumber({ min, max: 64, expected: `a whole number from ${min} to 64` });

export const SETTINGS = {
  BASE_URL: {
    kind: "var",
    type: origin(),
    default: "http://127.0.0.1:8787",
    description: "Origin of the API and dashboard; every link is built from it, never from the request's Host. Render containers reach the Worker here.",
    example: "https://studio.example.com",
  },
  CONTENT_URL: {
    kind: "var",
    type: origin(),
    default: "http://localhost:8787",
    description:
      "Origin of user content (play pages, project files, previews, share links): another host than BASE_URL, in production a registrable domain of its own, routed to the same Worker.",
    example: "https://studio-content.example.net",
  },
  TOKEN_SECRET: {
    kind: "secret",
    type: text({ minLength: 16, secret: true }),
    required: true,
    description: "HMAC key personal tokens, capabilities and visitor cookies are derived from (at least 16 characters; `npm start` keeps one in .data/secrets.json).",
    example: "<at least 16 random characters: openssl rand -hex 32>",
  },
  DEV_LOGIN: {
    kind: "var",
    type: flag(),
    default: "false",
    description: '"true" enables POST /auth/dev/login (sign-in by name, no password): `npm start` and the tests only, never production.',
  },
  GITHUB_CLIENT_ID: { kind: "secret", type: text({ minLength: 1, secret: false }), defaultNote: "GitHub sign-in off", description: "GitHub OAuth app's client id (callback `<BASE_URL>/auth/github/callback`); set with GITHUB_CLIENT_SECRET." },
  GITHUB_CLIENT_SECRET: { kind: "secret", type: text({ minLength: 1, secret: true }), defaultNote: "GitHub sign-in off", description: "GitHub OAuth app's client secret; set with GITHUB_CLIENT_ID." },
  GOOGLE_CLIENT_ID: { kind: "secret", type: text({ minLength: 1, secret: false }), defaultNote: "Google sign-in off", description: "Google OAuth client id (callback `<BASE_URL>/auth/google/callback`); set with GOOGLE_CLIENT_SECRET." },
  GOOGLE_CLIENT_SECRET: { kind: "secret", type: text({ minLength: 1, secret: true }), defaultNote: "Google sign-in off", description: "Google OAuth client secret; set with GOOGLE_CLIENT_ID." },
  ADMIN_USER_IDS: {
    kind: "var",
    type: commaList({ expected: "comma-separated user ids (as GET /api/me reports them)", entry: (id) => (/^[\w.:-]{1,200}$/.test(id) ? id : null) }),
    default: "",
    defaultNote: "no admins",
    description: "Comma-separated user ids with admin rights: idea-board statuses, groups and research records, render node keys.",
  },
  IDEA_WRITE_LIMIT: { kind: "var", type: positiveInt("writes"), default: "30", description: "Idea-board writes allowed per person per window; past it 429 with Retry-After." },
  IDEA_WRITE_WINDOW_SECONDS: { kind: "var", type: positiveInt("seconds"), default: "60", description: "Length of the idea-board write window, in seconds." },
  OAUTH_REGISTRATIONS_PER_ADDRESS: { kind: "var", type: positiveInt("registrations"), default: "10", description: "OAuth client registrations (POST /oauth/register) allowed per caller address (an IPv4 address, an IPv6 /64) per window; past it 429 with Retry-After." },
  OAUTH_REGISTRATIONS_PER_NETWORK: { kind: "var", type: positiveInt("registrations"), default: "30", description: "OAuth client registrations allowed per IPv4 /24 or IPv6 /56 per window; past it 429 with Retry-After." },
  OAUTH_REGISTRATIONS_PER_SITE: { kind: "var", type: positiveInt("registrations"), default: "60", description: "OAuth client registrations allowed per IPv6 /48 per window; past it 429 with Retry-After." },
  OAUTH_REGISTRATION_NETWORKS: {
    kind: "var",
    type: positiveInt("networks"),
    default: "1000",
    description: "Distinct networks (IPv4 /24s, IPv6 /48s) that may register OAuth clients per window, all together; a network counts once however much it registers. Past it 429 with Retry-After.",
  },
  OAUTH_UNUSED_CLIENT_SECONDS: {
    kind: "var",
    type: wholeNumber({ min: 60, max: 45 * 86_400, expected: "a whole number of seconds from 60 to 3888000 (45 days)" }),
    default: "86400",
    defaultNote: "a day",
    description: "A registered OAuth client that has not exchanged a code within this long is deleted; its first exchange keeps it for 90 days from its last use.",
  },
  OAUTH_REGISTRATION_WINDOW_SECONDS: { kind: "var", type: positiveInt("seconds"), default: "3600", description: "Length of the OAuth client registration window, in seconds." },
  OAUTH_CLIENT_METADATA_FETCHES_PER_USER: { kind: "var", type: positiveInt("fetches"), default: "20", description: "Authorization requests naming a client by its metadata document URL (each may fetch it) allowed per signed-in person per window; past it 429. Anonymous requests fetch nothing." },
  OAUTH_CLIENT_METADATA_WINDOW_SECONDS: { kind: "var", type: positiveInt("seconds"), default: "3600", description: "Length of the client metadata fetch window, in seconds." },
  MAX_FILE_BYTES: { kind: "var", type: positiveInt("bytes"), default: "104857600", defaultNote: "100 MiB", description: "Largest accepted file upload, in bytes." },
  MAX_STORAGE_BYTES: {
    kind: "var",
    type: positiveInt("bytes"),
    default: "5368709120",
    defaultNote: "5 GiB",
    description: "What one user may store, project files and renders together, in bytes; past it a write is a 413 storage_quota_exceeded.",
  },
  MAX_STORED_FILES: {
    kind: "var",
    type: positiveInt("objects"),
    default: "100000",
    description: "How many objects (files, empty directories, renders) one user may store.",
  },
  JOB_LEASE_MS: {
    kind: "var",
    type: atLeast(1000, "milliseconds"),
    default: "30000",
    description: "How long a render node may hold a job without a progress post before the job is given to another node (ms).",
  },
  MAX_JOB_ATTEMPTS: { kind: "var", type: positiveInt("attempts"), default: "3", description: "How many nodes may try one job before it fails: a render, segment or join (then its render fails), a snapshot or check whose node went silent (then a 504)." },
  SEGMENT_OVERHEAD_MS: {
    kind: "var",
    type: positiveInt("milliseconds"),
    default: "3000",
    description: "The farm model's fixed cost of one segment on a running node (claim, browser launches, composition load, upload; bench/segments.ts measures it): a render is split only when that still finishes it sooner.",
  },
  NODE_FRAMES_PER_SECOND: {
    kind: "var",
    type: positiveNumber("a positive number of frames per second"),
    default: "15",
    description: "The farm model's capture rate: frames one render node captures and encodes per second at 1920x1080 (bench/segments.ts measures it).",
  },
  JOIN_MS_PER_VIDEO_SECOND: {
    kind: "var",
    type: positiveInt("milliseconds"),
    default: "75",
    description: "The farm model's cost of joining a split render's segments, per second of video (bench/segments.ts measures it).",
  },
  MAX_SEGMENTS: {
    kind: "var",
    type: atLeast(2, "segments"),
    default: "64",
    description: "Most segments one render is split into, however many nodes are free.",
  },
  MAX_VIDEO_SECONDS: {
    kind: "var",
    type: positiveNumber("a positive number of seconds"),
    default: String(COMPOSITION_LIMITS.maxDurationSeconds),
    defaultNote: "one hour",
    description: "Longest video one render may make, in seconds of video; a longer plan fails before capture.",
  },
  MAX_RENDER_MS: {
    kind: "var",
    type: atLeast(1000, "milliseconds"),
    default: "1800000",
    defaultNote: "30 min",
    description: "Wall-clock limit of a render's running time (ms): summed over its attempts from each node's claim; time waiting in the queue does not count.",
  },
  MAX_RENDERS_PER_USER: { kind: "var", type: positiveInt("renders"), default: "3", description: "Renders in progress (queued or rendering) one user may have across projects; past it 429." },
  RENDER_SECONDS_PER_DAY: {
    kind: "var",
    type: positiveNumber("a positive number of render-seconds"),
    defaultNote: "no daily budget",
    description: "The operator's default daily budget of render-seconds (node seconds, as quoted) per user, per UTC day; a user may set a lower one of their own. A render past it is refused with 429 budget_exceeded until the next UTC midnight.",
  },
  MAX_SNAPSHOTS_PER_USER: { kind: "var", type: positiveInt("snapshots"), default: "2", description: "Snapshot jobs one user may have in flight; past it 429." },
  MAX_CHECKS_PER_USER: { kind: "var", type: positiveInt("checks"), default: "2", description: "Check jobs one user may have in flight; past it 429." },
  MAX_PREVIEWS_PER_USER: { kind: "var", type: positiveInt("previews"), default: "3", description: "Previews one user may have running; past it 429." },
  NODE_PICKUP_TIMEOUT_MS: {
    kind: "var",
    type: atLeast(100, "milliseconds"),
    default: "30000",
    description: "How long snapshot, check and preview wait for a render node to pick their job up before a 504 (ms).",
  },
  MCP_RENDER_WAIT_MS: {
    kind: "var",
    type: atLeast(100, "milliseconds"),
    default: "25000",
    defaultNote: "25 s",
    description:
      "How long the MCP render tool waits for the render to end before it answers with a handle for get_render (ms). Kept under the 30-60 s after which MCP clients give up on a tool call; the tests set it short.",
  },
  BROWSER_JOB_TIMEOUT_MS: {
    kind: "var",
    type: atLeast(100, "milliseconds"),
    default: "180000",
    description: "How long snapshot and check wait for their job to end before a 504 naming the stage that hung (ms).",
  },
  JOB_RETENTION_DAYS: {
    kind: "var",
    type: positiveNumber("a positive number of days"),
    default: "7",
    description: "How long ended jobs (the queue's work rows; render history is kept apart) stay before the hourly prune deletes them.",
  },
  WEBHOOK_BACKOFF_SECONDS: {
    kind: "var",
    type: commaList({ expected: "comma-separated numbers of seconds, each 0 or more", entry: nonNegativeNumberEntry, atLeastOne: true }),
    default: "5,30,120,600,1800,7200",
    description: "Seconds between webhook delivery retries, in order; past the last the delivery fails for good.",
  },
  WEBHOOK_ALLOWED_HOSTS: {
    kind: "var",
    type: commaList({ expected: "comma-separated host names, IP addresses or CIDR ranges", entry: parseAllowedHost }),
    default: "",
    defaultNote: "public addresses only",
    description: "Private receivers webhooks may call although their address is not public: host names, IP addresses, CIDR ranges. Never the studio itself.",
    example: "127.0.0.1,ci.internal,10.0.0.0/8",
  },
  CONTAINER_NODE_KEY: {
    kind: "secret",
    type: text({ minLength: 1, secret: true }),
    defaultNote: "required when RENDER_NODE_CONTAINER is bound",
    description: "The node key render containers use (`npm run node-key -- containers --remote`).",
  },
  CONTAINER_MIN_INSTANCES: { kind: "var", type: instances(0), default: "0", description: "Render containers kept running however short the queue (at most CONTAINER_MAX_INSTANCES)." },
  CONTAINER_MAX_INSTANCES: {
    kind: "var",
    type: instances(1),
    default: "8",
    formerName: "CONTAINER_POOL_SIZE",
    description: "Most render containers at once, one per CONTAINER_JOBS_PER_INSTANCE queued jobs; keep it at most the containers' max_instances in wrangler.toml.",
  },
  CONTAINER_JOBS_PER_INSTANCE: { kind: "var", type: instances(1), default: "1", description: "Queued or running jobs per render container started." },
  CONTAINER_SLEEP_AFTER: {
    kind: "var",
    type: duration(),
    default: "5m",
    description:
      "How long a render container with no work of its own (none held, none queued) runs before it stops (its `sleepAfter`); the CONTAINER_MIN_INSTANCES first instances stay.",
  },
  CONTAINER_CLAIM_IN_FLIGHT_MS: {
    kind: "var",
    type: positiveInt("milliseconds"),
    default: "15000",
    description:
      "How long after any job is claimed no idle render container stops: the claim's answer may still be on its way to its node, whose health answer does not count the job yet (ms).",
  },
  LOCAL_CONTAINERS_URL: {
    kind: "var",
    type: origin(),
    defaultNote: "unset: Cloudflare runs the containers",
    description:
      "Local runs only (`STUDIO_NODES=containers npm start`): where the local container host runs render-node processes for RENDER_NODE_CONTAINER, wrangler dev having no containers here (scripts/lib/local-containers.ts).",
  },
  CONTAINER_NODE_CONCURRENCY: {
    kind: "var",
    type: wholeNumber({ min: 1, max: 16, expected: "a whole number of browsers from 1 to 16" }),
    default: "2",
    description: "Browsers (and chunk encoders) per render in each render container: one per vCPU of the containers' instance_type (standard-3: 2).",
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;
/** Older names still read (SettingSpec.formerName). */
export type FormerName = "CONTAINER_POOL_SIZE";

/**
 * Settings no longer read, and what replaced them. One still set is a configuration error: an operator who set it
 * expects it to do something, and it would silently do nothing.
 */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  SEGMENT_MIN_FRAMES: "no longer read: a render is split when the farm model says it finishes sooner (SEGMENT_OVERHEAD_MS, NODE_FRAMES_PER_SECOND, JOIN_MS_PER_VIDEO_SECOND); remove it",
  SEGMENT_TARGET_FRAMES: "no longer read: a split render gets one segment per free node (at most MAX_SEGMENTS); remove it",
  OAUTH_REGISTRATIONS_TOTAL: "no longer read: one network could use up a total for everyone; all callers together are limited by distinct networks (OAUTH_REGISTRATION_NETWORKS); remove it",
};

/** What a binding is for and whether the Worker can serve without it. Bindings are checked, never parsed. */
export interface BindingSpec {
  required: boolean;
  /** Where wrangler.toml declares it. */
  declaredBy: string;
  description: string;
}

export const BINDINGS = {
  DB: { required: true, declaredBy: "[[d1_databases]]", description: "D1: users, projects, renders, the job queue, the idea board." },
  FILES: { required: true, declaredBy: "[[r2_buckets]]", description: "R2: project files, renders, snapshots, fonts." },
  PROJECT_ROOM: { required: true, declaredBy: "[[durable_objects.bindings]]", description: "One ProjectRoom per (user, project): renders' progress, events, the render watchdog." },
  WEBHOOK_OUTBOX: { required: true, declaredBy: "[[durable_objects.bindings]]", description: "One WebhookOutbox per user: signing secret, project webhooks, deliveries and retries." },
  JOB_BOARD: { required: true, declaredBy: "[[durable_objects.bindings]]", description: "The JobBoard where render nodes' claims wait for work." },
  STORAGE_LEDGER: { required: true, declaredBy: "[[durable_objects.bindings]]", description: "One StorageLedger per user: what they store against their quota." },
  OAUTH_KV: { required: true, declaredBy: "[[kv_namespaces]]", description: "KV: OAuth for MCP clients (worker/oauth/): registered clients, grants, hashed tokens." },
  ASSETS: { required: false, declaredBy: "[assets]", description: "The dashboard's static files; without it the dashboard's paths answer 404." },
  CF_VERSION_METADATA: { required: false, declaredBy: "[version_metadata]", description: "Which upload of the Worker answers, reported by GET /api/health." },
  RENDER_NODE_CONTAINER: {
    required: false,
    declaredBy: "[[env.production.durable_objects.bindings]] and [[env.production.containers]]",
    description: "Render nodes as Cloudflare Containers, started as work is queued (production); unbound, nodes run elsewhere.",
  },
} as const satisfies Record<string, BindingSpec>;

export type BindingName = keyof typeof BINDINGS;
