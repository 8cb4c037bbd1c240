// The render half of the studio reference (see studio-section.ts): render, events, downloads, status codes, limits
// and the render nodes' protocol.
import { COMPOSITION_LIMITS as LIMITS } from "../../core/composition/size-limits.ts";

const grouped = (n: number) => n.toLocaleString("en-US");

export const renderSection = `## Render

Render state: { id, slug, status, startedAt, doneAt, filename, downloadUrl, lastLine, eventsUrl, format, quality,
fps, resolution, composition, progress, error, size, segments } plus "lines" (the full log) on GET .../render and
on a "wait" render. status is "queued" (waiting for a render node) or "rendering" while in progress, then "done",
"failed" or "cancelled". progress is { frame, total, percent, fps, stage, etaSeconds } once the node reports frames
(stage: planning, downloading, capturing, encoding, joining or uploading), else null.
downloadUrl is "/renders/<filename>" exactly while that file is in GET /api/renders (done, and not deleted); else
null, also after DELETE /renders/<filename> (filename stays, for the record).

Long renders are split across render nodes. The node that takes a render first loads the composition once (the
plan: frames, rate, size, audio). A render of more than 20 s of video (SEGMENT_MIN_FRAMES, in frames; default 20 s
at the render's rate) is split into segments of about 10 s (SEGMENT_TARGET_FRAMES; at most 64 segments,
MAX_SEGMENTS, so a longer video gets longer segments) that any nodes render at once,
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
  GET    /api/projects/:slug/events          → Server-Sent Events of the project's renders and files (see Events)

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
": keep-alive" comment every 15 s). Its events have no id; a client that reconnects gets the current state again:
  render  sent first on every connection: the current or last render's state (as GET .../render, without
          "lines"), or { status: "none" } when the project never rendered; then again whenever a render starts
          (status "queued") or ends (done, failed or cancelled, with its downloadUrl), whoever started it (the
          API, MCP, the CLI, another page). Follow its progress on .../render/events.
  files   { written: [path], deleted: [path] } whenever a file of the project is written or deleted by anyone
          (the dashboard, an agent, a finished snapshot). It carries paths only: read the files with GET .../files.
The dashboard's project page reloads its file list on "files", and on "render" follows the render's progress and
ends it with a toast and the download.

  curl -N "{{BASE_URL}}/api/projects/my-first-video/events?token={{TOKEN}}"

## Downloads

  GET    /api/renders              → { renders: [{ id, filename, project, size, mtime, url }], next }, newest first, yours
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
path conflict · 411 upload without a length (render nodes) · 413 file or request body too large, or storage
quota full · 415 a cookie
write whose JSON body is not Content-Type: application/json · 416 range not satisfiable ·
422 a snapshot the node could not take · 429 rate limited (idea board) or at a per-user cap on renders, snapshots,
checks or previews (Retry-After says when to retry) · 500 a bug on our
side (the body never leaks details) · 502 a preview that failed to start · 503 no render node available (check,
snapshot, preview) · 504 a check, snapshot or preview that hung (the message names the stage).

## Limits

Files: {{MAX_FILE_MB}} MiB each. JSON request bodies: 1 MiB (POST /api/projects: {{MAX_FILE_MB}} MiB, since its html
and files are files); a larger one is a 413 and is never read whole. Storage: 5 GiB per user, project files and
renders together (MAX_STORAGE_BYTES), in at most 100,000 files (MAX_STORED_FILES; empty files and directories
count); a write that would pass either is a 413 { error, code: "storage_quota_exceeded", used, limit, files,
fileLimit } (bytes, objects) and stores nothing: delete files, projects or renders to make room. GET /api/me
shows the same four numbers under storage. A render whose file
would pass it fails with that message. Every write is admitted before any byte is kept: one of unknown length
(chunked, or encoding=base64) may store at most the room left (or the file limit), and past it stops with the same
413, storing nothing. Concurrent writes, overwrites and deletes never pass the quota together, and once they end
the count is exactly what is stored. Cached Google Fonts of a project (at most 10 stylesheets) count as its files.
Projects: no count limit. Renders: one at a time per project; the log keeps the
last 10,000 lines. Render nodes hold a job with a 30 s lease renewed by every progress post; a node that stops
posting loses the job (the whole render, a segment or the join) to another node, which starts that job again (the
log says "render: node <name> stopped renewing its lease (…; attempt 1 of 3); queued again for another node", or
"segment 2: node …"); after 3 attempts of one job (MAX_JOB_ATTEMPTS) the render fails with a line naming the node. A node that reports a failure is not retried. A render that waits for a node says so in its log after
20 s. Server-side, a "wait" request is held until the render ends.

Every render ends within 30 minutes of its POST, time in the queue included: past that it fails with the line
"render failed: render exceeded the wall-clock limit of 30 min" and the node rendering it is told to stop.
One render makes at most an hour of video (MAX_VIDEO_SECONDS; frames at the render's rate): a longer composition
fails once loaded, before anything is captured, with "render failed: the video would be <n> s long (<frames>
frames at <fps> fps); one render makes at most 3600 s of video (MAX_VIDEO_SECONDS)".

A composition's root is at most ${LIMITS.maxSide} px a side and ${grouped(LIMITS.maxPixels)} px in area (4096x2160: 4K UHD 3840x2160 and
2160x3840 and DCI 4K fit, a square up to 2974x2974), data-fps at most ${LIMITS.maxFps}, data-duration at most ${LIMITS.maxDurationSeconds} s, and at most
${grouped(LIMITS.maxFrames)} frames (an hour at 60 fps) at the render's rate. Over one, render, snapshot, check and preview answer 400
{ error, code: "bad_request" } before anything is queued, e.g. "invalid composition: index.html is over the studio's
limits: data-width=\"100000\" is over the maximum of 4096 pixels per side"; lint reports it as root_over_limit
(an error), and a render node refuses such a job before starting a browser. The resolution presets all fit.

Per user, across all projects (render nodes are shared, so nobody may hold them all):
  renders in progress (queued or rendering)   3
  snapshots in flight                          2
  checks in flight                             2
  previews running                             3
Past one of these the request answers 429 { error, limit, retryAfter } with a Retry-After header (30 s for
renders, 10 s for snapshots and checks, 60 s for previews, which end only when stopped: DELETE .../preview) and
queues nothing. A second render POST on the same project is not a 429: it returns the running render. (These are
the defaults; an operator may change them: MAX_RENDER_MS, MAX_VIDEO_SECONDS, MAX_SEGMENTS, MAX_RENDERS_PER_USER, MAX_SNAPSHOTS_PER_USER,
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
