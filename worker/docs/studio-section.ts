// The studio half of GET /api/docs. {{BASE_URL}} and {{TOKEN}} are filled in per caller.
export const studioSection = `# Studio API reference

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
  GET  /api/me                → { user: { id, name, email, avatarUrl, provider, createdAt }, token, baseUrl, curl, docsUrl }
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
pixels) where they apply. Codes:
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

## Render

Render state: { id, slug, status, startedAt, doneAt, filename, downloadUrl, lastLine, eventsUrl, format, quality,
fps, resolution, composition, progress, error, size, segments } plus "lines" (the full log) on GET .../render and
on a "wait" render. status is "queued" (waiting for a render node) or "rendering" while in progress, then "done",
"failed" or "cancelled". progress is { frame, total, percent, fps, stage, etaSeconds } once the node reports frames
(stage: planning, downloading, capturing, encoding, joining or uploading), else null.
downloadUrl is "/renders/<filename>" exactly while that file is in GET /api/renders (done, and not deleted); else
null, also after DELETE /renders/<filename> (filename stays, for the record).

Long renders are split across render nodes. The node that takes a render first loads the composition once (the
plan: frames, rate, size, audio). A render of more than 20 s of video (SEGMENT_MIN_FRAMES, in frames; default 20 s
at the render's rate) is split into segments of about 10 s (SEGMENT_TARGET_FRAMES) that any nodes render at once,
each frame-exact with closed GOPs; then one node joins them without re-encoding the video and mixes the audio once.
A shorter render, and every GIF (its palette pass needs all frames), is rendered whole on one node as before. While
split, segments is [{ index, fromFrame, toFrame, node, attempts, status }] (frames [fromFrame, toFrame); status
queued, rendering, done, failed or cancelled), progress sums frames over segments, and log lines of a segment start
with "segment <index>: "; otherwise segments is null. The joined file has the frame count, duration and frames of a
one-node render. Cancel reaches every node holding a segment at its next progress post (they post twice a second).

  POST   /api/projects/:slug/render          options → 202 the new render's state; 200 the running render's
                                             state when one is in progress (one render at a time per project);
                                             with wait: 200 the ended render with "lines"
  GET    /api/projects/:slug/render          → current or last render with "lines", or { status: "none", recent: [render list entry] }
  DELETE /api/projects/:slug/render          → { stopped: true } if a render was cancelled, { stopped: false } if none ran
  GET    /api/projects/:slug/render/events   → Server-Sent Events (see Events)
  GET    /api/projects/:slug/events          → Server-Sent Events of the project's files (see Events)

Options (unknown names are a 400 naming the option):
  quality      draft | standard | high                         default standard
  fps          integer 1–120, or "num/den" such as "30000/1001" (passed to ffmpeg exactly)   default: the root's
               data-fps ("24", "30000/1001"), else 30; a GIF: 15 (or a lower data-fps)
  format       mp4 (H.264 + AAC, faststart) | webm (VP9 + Opus) | mov (ProRes 422 + PCM) | gif (palette, no audio)   default mp4
  composition  a project .html file to render instead of index.html   default index.html
  resolution   landscape 1920x1080 | portrait 1080x1920 | square 1080x1080 | landscape-4k 3840x2160 |
               portrait-4k 2160x3840                            default: the composition's own size; a GIF
                                                                wider than 720 px: 720 px wide, same aspect
  strict       boolean: fail at once on lint errors (they become the log), and fail   default false
               on a blocked network attempt, a timeline that never registers, a missing
               asset, a font that fell back, a script error in any composition file (at
               load, in a timer or in a timeline callback during the render) or a
               sub-composition that did not mount (without strict, each is a "finding:"
               line of the log)
  wait         boolean, or ?wait=1: hold the request until the render ends   default false

Encoder settings per quality (chunks encode in parallel, one ffmpeg per browser, joined without re-encoding):
  format  draft                                standard                              high
  mp4     x264 ultrafast CRF 28, AAC 128k      x264 veryfast CRF 20, AAC 192k        x264 medium CRF 16, AAC 256k
  webm    VP9 realtime cpu-used 8 CRF 40,      VP9 good cpu-used 5 CRF 32,           VP9 good cpu-used 2 CRF 24,
          Opus 96k                             Opus 128k                             Opus 192k
  mov     ProRes (prores_aw) proxy, PCM 16     ProRes 422, PCM 16                    ProRes 422 HQ, PCM 16
  gif     96 colours, Bayer dither (scale 5)   256 colours, Sierra dither            256 colours, Floyd-Steinberg
A GIF is two palette passes (palettegen over the whole clip, then paletteuse), no audio, looping. Its defaults
(720 px wide, 15 fps) are what GIF tools use: the 6 s starter at 1080p and 30 fps would be tens of MB; a 4 s draft
GIF of the starter is under 3 MB. Ask for fps or resolution to get more.
mp4 and webm are BT.709 4:2:0; mov is 4:2:2 10-bit. Audio: every <audio> (and unmuted <video>) is mixed at its
data-start (plus its sub-composition host's), trimmed to data-duration, with data-volume.

The frame count is round(duration × fps). Invalid values are a 400 naming the option and the allowed values.
Every render writes a new file named <slug>_<YYYY-MM-DD>_<HH-MM-SS>.<ext> (UTC); earlier files stay. A minute of
video can take minutes: give "wait" requests a generous client timeout.

  curl -X POST "{{BASE_URL}}/api/projects/my-first-video/render?wait=1" -H "Authorization: Bearer {{TOKEN}}" \\
       -H "Content-Type: application/json" -d '{"format":"mp4","quality":"draft"}'

## Events

GET /api/projects/:slug/render/events (also with ?token=) is a Server-Sent Events stream with a ": keep-alive"
comment every 15 s. Every event has an "id:" line (a number that only grows) and a JSON "data" line:
  snapshot  sent first on a new connection: the same object as GET .../render (a client that connects
            mid-render gets the log so far in "lines"), or { status: "none", recent } when the project never
            rendered; its id is the newest event's
  start     a render started: its render state (status "queued")
  line      a log line: { line, status, progress }
  end       the render ended: its final render state (status done, failed or cancelled); the stream then closes
Resuming: send the last id you saw as the Last-Event-ID header (EventSource does so when it reconnects) or as
?lastEventId=; you get the events after it instead of the snapshot, nothing lost or repeated, even if the server
restarted meanwhile (the newest 12,000 events are kept; an older id gets the snapshot). A stream that closed after
"end" can be reopened to follow the next render.
Webhooks (a signed POST when a render ends) are described under "Webhooks" below.

  curl -N "{{BASE_URL}}/api/projects/my-first-video/render/events?token={{TOKEN}}"

GET /api/projects/:slug/events (also with ?token=) is the project's own stream, which never ends by itself (a
": keep-alive" comment every 15 s): a "files" event, { written: [path], deleted: [path] }, whenever a file of the
project is written or deleted by anyone (the dashboard, an agent, a finished snapshot). It carries paths only:
read the files with GET .../files. The dashboard's project page reloads its file list on it.

  curl -N "{{BASE_URL}}/api/projects/my-first-video/events?token={{TOKEN}}"

## Downloads

  GET    /api/renders              → { renders: [{ filename, project, size, mtime, url }], next }, newest first, yours
                                     only; ?limit=&next= pages it
  GET    /api/renders/:id          → one render's state by id (as POST .../render returned it), in any state
  GET    /renders/<filename>       → the video; a single Range → 206; ?download → attachment
  DELETE /renders/<filename>       → { deleted: true, filename }

Rendered videos outlive their project: deleting a project keeps its renders until you delete them.
CORS is open on downloads as on the API: GET, HEAD and DELETE /renders/<filename> answer with
Access-Control-Allow-Origin: * and expose Content-Range, Content-Length, Content-Disposition, ETag and
Accept-Ranges; the preflight (OPTIONS) needs no token and allows Authorization, X-Studio-Token, Range and If-Range.
Send the token in a header (or ?token=): cross-origin requests never carry the session cookie.

## Status codes

400 invalid JSON, field, option or path · 401 missing or wrong token · 403 deleting index.html, or a
cross-site cookie write · 404 unknown project, file, render or endpoint (also another user's) · 409 slug or
path conflict · 411 upload without a length (render nodes) · 413 file or request body too large · 415 a cookie
write whose JSON body is not Content-Type: application/json · 416 range not satisfiable ·
422 a snapshot the node could not take · 429 rate limited (idea board) or at a per-user cap on renders, snapshots,
checks or previews (Retry-After says when to retry) · 500 a bug on our
side (the body never leaks details) · 502 a preview that failed to start · 503 no render node available (check,
snapshot, preview) · 504 a check, snapshot or preview that hung (the message names the stage).

## Limits

Files: {{MAX_FILE_MB}} MiB each. JSON request bodies: 1 MiB (POST /api/projects: {{MAX_FILE_MB}} MiB, since its html
and files are files); a larger one is a 413 and is never read whole. Projects: no count limit. Renders: one at a time per project; the log keeps the
last 10,000 lines. Render nodes hold a job with a 30 s lease renewed by every progress post; a node that stops
posting loses the job (the whole render, a segment or the join) to another node, which starts that job again (the
log says "render: node <name> stopped renewing its lease (…; attempt 1 of 3); queued again for another node", or
"segment 2: node …"); after 3 attempts of one job (MAX_JOB_ATTEMPTS) the render fails with a line naming the node. A node that reports a failure is not retried. A render that waits for a node says so in its log after
20 s. Server-side, a "wait" request is held until the render ends.

Every render ends within 30 minutes of its POST, time in the queue included: past that it fails with the line
"render failed: render exceeded the wall-clock limit of 30 min" and the node rendering it is told to stop.

Per user, across all projects (render nodes are shared, so nobody may hold them all):
  renders in progress (queued or rendering)   3
  snapshots in flight                          2
  checks in flight                             2
  previews running                             3
Past one of these the request answers 429 { error, limit, retryAfter } with a Retry-After header (30 s for
renders, 10 s for snapshots and checks, 60 s for previews, which end only when stopped: DELETE .../preview) and
queues nothing. A second render POST on the same project is not a 429: it returns the running render. (These are
the defaults; an operator may change them: MAX_RENDER_MS, MAX_RENDERS_PER_USER, MAX_SNAPSHOTS_PER_USER,
MAX_CHECKS_PER_USER, MAX_PREVIEWS_PER_USER.)

## Render nodes

Render nodes pull work over HTTP with a node key ("stn_…"): create one with
"npm run node-key -- <name>" (local) or "npm run node-key -- <name> --remote" (production D1); the key is shown
once. Admins (ADMIN_USER_IDS; session cookie or user token, never a bot or node key) manage node keys over the
API and on the dashboard's Render nodes panel; nobody else may, since a node key reads every user's projects:
  POST   /api/node-keys { name } → 201 { id, name, createdAt, lastSeenAt, online, key } (the key, shown once;
         name: 1-60 letters, digits, ".", "_", "-"; at most 100 keys, then 409)
  GET    /api/node-keys → { nodeKeys: [{ id, name, createdAt, lastSeenAt, online }] } (online: heard from in 30 s)
  DELETE /api/node-keys/:id → { revoked: true, id }: the node's next call is 401; a job it held is re-queued when
         its lease lapses. Others get 403 (401 without a credential).
"npm run node" starts one more local node against the running studio (a key made for it unless NODE_KEY is set).
Protocol (Authorization: Bearer <node key>):
  POST /api/node/jobs/claim { nodeId?, kinds? } (?wait=seconds, at most 25) → { job: { id, kind, slug, options,
       composition, leaseMs, attempt } } or 204. A long poll answered the moment work of those kinds is queued.
       kinds: render, segment, join, snapshot, check, preview. Snapshots and checks go first; among the rest the
       user with the fewest jobs running goes first (one user's queue never starves another's), oldest first.
       Every claim records the node as seen; browser endpoints answer 503 when no node was seen for 30 s.
       nodeId names the process in log lines (several processes may share one key).
  POST /api/node/jobs/:id/plan { plan } (a render job, after loading the composition) → { segments, cancelled };
       one segment: render it whole; more: this job has ended and segment jobs are queued. A segment job's options
       are { renderId, index, fromFrame, toFrame, plan, render }; a join job's { renderId, segments, plan, render }.
  GET  /api/node/jobs/:id/segments/:index → a segment file (the join job's node only)
  GET  /api/node/jobs/:id/files → { files: [{ path, size, mtime }] };  GET /api/node/jobs/:id/files/<path> → bytes
  PUT  /api/node/jobs/:id/files/snapshots/<path> (snapshot jobs only; Content-Length required) → { ok, path, size }
  POST /api/node/jobs/:id/progress { lines, stage?, progress? } → { cancelled } (renews the lease; post at least
       every second; stage is what a timeout names; progress is { frame, total, fps, stage, etaSeconds }: the only
       way progress travels, since no log line is parsed)
  POST /api/node/jobs/:id/preview { port } → { cancelled } (a preview job's port, once it listens)
  PUT  /api/node/jobs/:id/output (Content-Length required) → { ok, size } (a segment's file waits for the join;
       a render's or join's is the render's file)
  POST /api/node/jobs/:id/complete { ok, error?, result? } → { ok, error? } (a render's room decides: a success
       with no uploaded file is a failure)
The zod schemas of every route above, the job kinds and the progress event live in core/protocol/ of the source.
`;
