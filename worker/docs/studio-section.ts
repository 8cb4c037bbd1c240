// The studio half of GET /api/docs, in two files: this one (conventions, authentication, projects, files, lint,
// check, snapshots, preview, playback, how a composition runs) and render-section.ts (render, events, downloads,
// status codes, limits, render nodes). {{BASE_URL}} and {{TOKEN}} are filled in per caller.
import { renderSection } from "./render-section.ts";

const projectsAndFiles = `# Studio API reference

Base URL: {{BASE_URL}}
Your token: {{TOKEN}}
Machine-readable: {{BASE_URL}}/api/openapi.json (OpenAPI 3.1, generated from the same zod schemas that
validate requests); interactive: {{BASE_URL}}/api/reference.

Every example below works as printed{{TOKEN_NOTE}}.

## Conventions

- JSON in and out, except file and video downloads. CORS is open (*).
- Errors: { "error": "<message>", "code": "<code>" } with a 4xx or 5xx status (codes: "# Error codes" below).
  401 messages begin "unauthorized:". A request that is refused changes nothing.
- Slugs match ^[a-z0-9][a-z0-9-]*$ (at most 64 characters). A project name is slugified: "My First Video!" →
  "my-first-video".
- Times: createdAt and mtime are ISO 8601 UTC strings; render startedAt/doneAt are epoch milliseconds (as the
  reference specifies).
- Paths carry no version. /api/health reports "version" (semantic versioning). Additive changes (new fields,
  endpoints, events) come without notice, so ignore fields you do not know; a breaking change would ship under new
  paths, with the old ones kept for at least 90 days.

## Authentication

Send your token as "Authorization: Bearer <token>" (preferred), "X-Studio-Token: <token>", or "?token=<token>"
(for plain links and EventSource). The dashboard uses an HttpOnly session cookie (studio_session) instead.
"?token=" works on the JSON API, file and video downloads and event streams, never on pages a browser shows
(/play/<slug>): to show a project to someone, hand out a share link (below), never your token.
A write made with that cookie (any method but GET, HEAD and OPTIONS, on every endpoint) must come from the
dashboard itself: its Origin header must be {{BASE_URL}} (or, with no Origin, Sec-Fetch-Site must be
"same-origin"), else 403 "forbidden: cross-site request refused (...)" and nothing changes; and its JSON body must
be sent as Content-Type: application/json, else 415. Token callers are not checked (any Origin, any content type).

Token format: "stu_" followed by 43 base64url characters. Other credentials are told apart by prefix: idea-board
bot keys start "stb_", render-node keys "stn_". Tokens are derived from a server secret and stored only as SHA-256
hashes; rotating replaces yours and the old one stops working at once.

  GET  /api/health            optional token → { ok, version, baseUrl, login: { github, google, dev }, authorized, user }
  GET  /api/docs              optional token → this text (examples carry your token and base URL)
  GET  /api/openapi.json      optional token → OpenAPI 3.1 document
  GET  /api/reference         optional token → interactive reference of that document (a page)
  GET  /api/me                → { user: { id, name, email, avatarUrl, provider, createdAt }, token, baseUrl, curl, docsUrl,
                                  storage: { used, limit, files, fileLimit } } (bytes and objects stored, and the quota)
  POST /api/me/token/rotate   → { rotated: true, token, curl }
  GET  /api/stats             no token → { pageViews, uniqueVisitors, returningVisitors, animationsCreated,
                                           animationsNow, rendersCompleted, users }
  POST /api/stats/view?page=<path>   no token → { recorded }  (page-view beacon; recorded says whether it counted)

Dashboard sign-in: GET /auth/github, GET /auth/google (when configured), POST /auth/dev/login { "name": "alice" }
(development mode only; returns the /api/me object and sets the session cookie), POST /auth/logout.

  curl -H "Authorization: Bearer {{TOKEN}}" {{BASE_URL}}/api/me

Stats: a visitor is an anonymous random id in a first-party cookie (studio_visitor), signed with a key derived
from the server secret; no IP address or user agent is stored. Each counter counts a client once per its rule, so
no single client can inflate it: a visitor is counted only when their cookie comes back (the first response just
sets it; a missing, forged or altered cookie counts nothing); a page view counts once per visitor, page (the path,
without query) and 30 minutes, for at most 20 pages per visitor per 30 minutes; a visitor is "returning" once they
come back 30 minutes or more after their previous page view. animationsCreated counts each (user, project slug)
once, ever (deleting and re-creating a project adds nothing); animationsNow the projects that exist now;
rendersCompleted renders a render node finished; users the accounts that exist.

## Projects

Project summary: { name (the slug), displayName, compositionId, duration (seconds), createdAt, createdBy,
preview: { running, port?, url? }, render: <render state without lines> | null }.

  GET    /api/projects           → { projects: [summary], next }, newest first, yours only; ?limit=&next= pages it
  POST   /api/projects           { name, html?, duration?, files?, createdBy? } → 201 { created, slug, project, files, written }
  GET    /api/projects/:slug     → { project, meta, files, contentUrl, contentExpiresAt }
  DELETE /api/projects/:slug     → { deleted: true, slug }   (stops its render and preview; rendered videos are kept)

Create: "html" is the whole index.html; without it a starter composition of "duration" seconds (default 6, at most
3600) is written that passes the linter and the browser check with no findings. "files" maps project paths to
text content.
"createdBy" is a free string (at most 100 characters) naming the agent or tool that created the project; it is
shown in summaries and never used for access. "name", "createdBy" and the paths in "files" may not contain
control, bidirectional or other invisible characters (400; see Files). The whole request body is bounded by the
file size limit, {{MAX_FILE_MB}} MiB (413, nothing created): put larger files with PUT, one at a time. An existing slug answers 409. Every new project has index.html,
meta.json ({ id, name, createdAt } — "meta" in the detail response is this file's content, or null if it is not
valid JSON), hyperframes.json (the composition framework's config: { name, entry, width, height, fps }, so a
downloaded project works with HyperFrames tools) and an empty assets/ directory.
"contentUrl" is a read-only link to the project on the content origin ({{CONTENT_URL}}), good for one hour
(until "contentExpiresAt"): the link itself is the playback page, and contentUrl + <path> is a project file.

  curl -X POST {{BASE_URL}}/api/projects -H "Authorization: Bearer {{TOKEN}}" \\
       -H "Content-Type: application/json" -d '{"name":"My First Video","duration":8}'

## Files

File entry: { path, size (bytes), mtime (ISO 8601 UTC), type: "file" | "directory" }. Listings are recursive and
include directories (type "directory", size 0), leaving out .thumbnails and .waveform-cache.

  GET    /api/projects/:slug/files              → { slug, files: [entry] }
  GET    /api/projects/:slug/files/<path>       → the file, with its content type; ?download → attachment;
                                                   a single Range → 206 (416 with Content-Range: bytes */size past the end)
  PUT    /api/projects/:slug/files/<path>       raw bytes → { written: true, slug, path, bytes, url }
  POST   /api/projects/:slug/files/<path>       same as PUT
  DELETE /api/projects/:slug/files/<path>       → { deleted: true, slug, path }  (directories too)

Writes are byte for byte, create parent directories and overwrite. ?encoding=base64 decodes a base64 body
(standard or URL-safe alphabet, whitespace ignored; anything else is a 400). A path ending in "/" with an empty
body creates an empty directory. The body is streamed into storage; the size limit is {{MAX_FILE_MB}} MiB per file
(413 past it; base64 bodies are decoded in memory and count after decoding). Paths containing "..", backslashes,
NUL, empty or "." segments, or starting with "/" or a drive letter are rejected with 400 — including
percent-encoded spellings at any depth ("%2e%2e%2f", "%252e%252e%252f"); plain "/../" in a URL is resolved by URL
parsing before the studio sees it. So are names with characters a reader cannot see or that reorder text: control
characters (C0, DEL, C1), bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C),
zero-width and other invisible or format characters (Unicode Cf, Zl, Zp and the rest of Default_Ignorable_Code_Point,
e.g. U+200B, U+200D, U+FEFF, U+2060, U+3164); the 400 names the character ("path contains a bidirectional control
character (U+202E)"). Variation selectors stay allowed, so emoji such as "❤️" work. index.html cannot be deleted (403). Writing a file where a directory is, or
inside a file, is a 409. Unknown project or file: 404 (another user's project answers exactly as a missing one).
Files a browser could execute (HTML, SVG, XML, JavaScript, PDF and unknown types) come from this endpoint as
attachments with "Content-Security-Policy: sandbox", never as pages; images, audio, video, fonts, JSON, text and
CSS come inline. Every file has "X-Content-Type-Options: nosniff". To view a composition, use contentUrl.

  curl -X PUT {{BASE_URL}}/api/projects/my-first-video/files/assets/logo.png \\
       -H "Authorization: Bearer {{TOKEN}}" --data-binary @logo.png

## Lint

  POST /api/projects/:slug/lint   { verbose?: boolean } → { ok, exitCode, result }

exitCode is 0 when there are no errors, 1 otherwise. result has the shape of HyperFrames' "lint --json":
{ ok, errorCount, warningCount, infoCount, findings: [{ code, severity: "error"|"warning"|"info", message, file,
selector?, fixHint? }], filesScanned }. Info findings (a summary of each composition) appear only with verbose.
Errors break or change a frame-by-frame render and must be fixed before rendering (a strict render fails on
them); warnings are usually acceptable. The rules follow HyperFrames' "lint" (0.8.170): where a rule has a
HyperFrames counterpart it is named, with the same severity unless a difference is given; rules with no
counterpart come from this API's composition rules (or the render nodes' limits). The rules:

{{LINT_RULES}}

## Check

  POST /api/projects/:slug/check   { at?: [seconds], samples?: integer, strict?: boolean } → { ok, exitCode, result }

Lint, then the composition loaded in headless Chromium on a render node (the same page loading, sub-composition
inlining, GSAP handling and seeking as a render), then layout inspection at sample times. Slower than lint
(seconds). Fields:
  samples  integer 1–60, default 9: inspect the layout at the midpoints of that many equal slices of the
           timeline, (i + ½) × duration / samples. Ignored when "at" is given.
  at       1–60 exact times in seconds (0 … duration) to inspect instead of the samples.
  strict   boolean, default false: warnings fail the check too (ok false, exitCode 1), in every section.
A time past the composition's duration, a non-integer samples, or an unknown field is a 400 naming the field.
result = { ok, strict, errorCount, warningCount, infoCount, lint, runtime, layout }: "lint" is the lint result
above; "runtime" and "layout" are { ok, errorCount, warningCount, infoCount, findings }, and layout also has
"times" (the times inspected). Findings have the lint shape { code, severity, message, file, selector?, fixHint? }
plus "time" (seconds, first time seen), "times" (every time seen) and "box" ({ x, y, width, height } in canvas
pixels) where they apply. Runtime findings are the render log's findings (in its words: the log shows each as
"finding: <message>"); a page-error raised in a sub-composition names that file, with "selector" (its host) and
"time" when a timeline callback broke as the check sought that time. Codes:
  runtime  composition-load-failed (error), console-error (error), page-error (error), request-failed (error),
           missing-asset (error: a project file the page asked for is not there; the message names the path and
           the file that referenced it, in the render log's words "missing asset: assets/logo.png (referenced by
           index.html) is not in the project", and the finding's file is that referencing file), request-blocked (warning: a
           non-project URL; nodes load only project files and GSAP), timeline-not-registered (warning: a
           composition with no window.__timelines entry), duration-mismatch (warning: a timeline longer than its
           data-duration, so its end is cut off), font-fallback (warning: text drawn with a fallback font because
           its family has no @font-face, is not bundled and is not a Google Fonts family the studio could get)
  layout   text-clipped (text cut off by overflow hidden or clip, its own or any ancestor's up to the root, with or
           without an ellipsis; text a mask hides entirely, or a transformed reveal in motion, is not reported),
           text-overflow (text spilling out of its box),
           off-canvas (an element partly or entirely outside the canvas; its children are not repeated),
           text-overlap (two texts drawn over each other); all warnings
ok is true when no section has errors (or, with strict, warnings). exitCode is 0 when ok, else 1.

  curl -X POST {{BASE_URL}}/api/projects/my-first-video/check -H "Authorization: Bearer {{TOKEN}}" \
       -H "Content-Type: application/json" -d '{"samples":5,"strict":true}'

## Snapshots

  POST /api/projects/:slug/snapshot   { at?: [seconds], frames?: integer, end?: boolean } → { ok, snapshots, log }

PNG frames at the composition's real size, taken on a render node exactly as a render captures them, plus a
contact sheet. Written to <project>/snapshots/, which is emptied first on every call.
  frames  integer 1–60, default 5: frames at i × duration / frames (0, d/5, 2d/5, …).
  at      1–60 exact times in seconds (0 … duration) instead of the evenly spaced frames.
  end     boolean, default true: adds the end-of-timeline frame, the last frame a 30 fps render shows
          ((round(duration × 30) − 1) / 30 s). false leaves it out. Applies with "at" as well.
snapshots = [{ path, size, url }]: the frames as "snapshots/frame-<NN>-<t>s.png" (the end frame
"frame-<NN>-end-<t>s.png"), then "snapshots/contact-sheet.png": up to 4 thumbnails a row, each 480 px wide with
its number and time under it. url is the normal files endpoint (GET it with your token). log is an array of the
node's log lines. A composition that cannot be captured is a 422 { error, ok: false, snapshots: [], log }.

  curl -X POST {{BASE_URL}}/api/projects/my-first-video/snapshot -H "Authorization: Bearer {{TOKEN}}" \
       -H "Content-Type: application/json" -d '{"at":[0.5,2.5],"end":false}'

## Preview

  POST   /api/projects/:slug/preview   → { running: true, port, url }   (starts one, or returns the running one)
  GET    /api/projects/:slug/preview   → { running, port?, url? }
  DELETE /api/projects/:slug/preview   → { stopped: true } if one ran, else { stopped: false }

A preview server for the project on a render node, on its own port (3002 and upward, the first free one). "url" is
http://<the content origin's host name>:<port>/<secret>/: the secret (43 random characters, new for each preview,
shown only to you) is required on every request, and anything without it is a bare 404. The server listens on the
node's loopback interface unless the node's operator sets PREVIEW_HOST, so the URL works where the node runs (with
npm start: on this machine). It serves the composition in the studio player (below) and reloads open pages within
about a second when a project file changes (files under snapshots/ excepted). A preview stops after 10 minutes
without a request; deleting the project stops it; so does the node stopping (its lease lapses and the preview
shows running: false). The project summary's "preview" field shows the same state.

## Playback page and share links

Everything a project author wrote is shown on a separate content origin, {{CONTENT_URL}}, never on this one. Its
URLs carry a capability instead of a token: a signed, expiring, read-only grant for one project or one render,
  {{CONTENT_URL}}/c/<capability>/          the playback page of a project
  {{CONTENT_URL}}/c/<capability>/<path>    a file of that project (Range, ?download)
  {{CONTENT_URL}}/c/<capability>/<file>    a render, for a render's link
Anyone holding such a link can read what it names until it expires, and nothing else; the content origin reads no
cookie or token. A link that was altered, whose project or render was deleted, or whose owner rotated their
token answers 403 "invalid link…"; one past its time answers 403 "this link has expired…".

GET /play/<slug> in a browser signed in on the dashboard (session cookie, or a token in a header; not ?token=)
redirects (302) to a fresh one-hour link to the project's playback page; a signed-out visitor gets a 401 page
linking to the sign-in. The page loads index.html and every sub-composition named by data-composition-src from
the link, GSAP and the player from the content origin (no CDN needed), and drives every registered timeline and
all audio and video from one clock; sub-compositions run at their host's data-start. Controls: play/pause (space),
scrub bar, ±1 s (arrow keys; with shift ±1 frame), Home/End, loop (L); current time and duration are shown.
The page runs sandboxed: its scripts run, but in an origin of their own, and they may load only from the content
origin (and data:/blob: URLs), so a composition can reach no other site, cookie or storage.

  POST /api/projects/:slug/share   { render?: "<filename>", expiresIn?: seconds } → { url, expiresAt }

A link to share: to the project (its playback page and files), or with "render" to one of the project's rendered
files. expiresIn is 60 to 604800 (seven days), default 86400 (one day). Rotating your token revokes every link
you handed out.

  curl -X POST {{BASE_URL}}/api/projects/my-first-video/share -H "Authorization: Bearer {{TOKEN}}" \
       -H "Content-Type: application/json" -d '{"expiresIn":604800}'

## Browser work: availability and timeouts

Check, snapshot and preview run on render nodes. When no render node has asked for work in the last 30 s, they
answer 503 { error: "no render node is available …" } (with Retry-After) and queue nothing. A job that no node
picks up within 30 s, or a check or snapshot that takes longer than 180 s, is given up with 504 { error } naming
the stage it hung in, for example "the snapshot timed out after 180 s (stage: capturing frame 3/6 at 2.4 s)".

## How a composition runs

The studio renders compositions the way HyperFrames 0.8.170 does, so a composition written from HyperFrames'
docs renders the same here (bench/parity.ts in the repository compares the two frame by frame):
- Each sub-composition file's inline scripts run in their own function scope, with document, gsap,
  window.__timelines and window.__hyperframes scoped to its host: its selectors find only its own elements, and
  two files may both say "const tl". Its <style> applies only inside its host. (A convenience, not a security
  boundary: every file of a project runs in one page.)
- Variables: data-composition-variables (a JSON array of { id, default }) declares them, a host's
  data-variable-values (a JSON object) overrides them for that mount; window.__hyperframes.getVariables() returns
  the merged values, which are also CSS custom properties on the host (--<id>). One file may be mounted many times.
- Frame rate: the root's data-fps ("24", "30000/1001") unless the render asks for fps; else 30. A GIF: 15 fps,
  or the root's data-fps when lower, unless the render asks for fps.
- Timed children of the root are absolute layers at the root's top-left, painted in DOM order (data-track-index
  does not change paint order). A clip outside its data-start/data-duration window is hidden; one in normal flow
  with no timed children also leaves the layout while hidden.
- Text is drawn with text-rendering: geometricPrecision; a mono audio track plays at full level on both channels.
- Fonts: Inter, Roboto, Montserrat, Open Sans, Lato, Poppins and 11 more, HyperFrames' aliases for them (Arial,
  Helvetica, Georgia, ...) and generic families (which draw as Inter) need no @font-face: render nodes serve them
  offline. Google Fonts links are fetched by the studio, never by the page. A family nobody supplies is the lint
  error font_family_without_font_face and, when rendered, a font-fallback finding.
`;

export const studioSection = `${projectsAndFiles}\n${renderSection}`;
