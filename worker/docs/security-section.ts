// The security model of GET /api/docs: who can see and do what, where user content lives, what a composition may
// and may not do, and the limits. One place, so an agent or a reviewer reads the whole model at once; the
// sections of each endpoint repeat only what a caller of that endpoint needs.
import { COMPOSITION_LIMITS as LIMITS } from "../../core/composition/size-limits.ts";

export const securitySection = `# Security model

Compositions are programs: anyone with a token writes HTML and JavaScript that runs in a person's browser, on
render nodes and in previews, and agents write them from prompts they do not control. The studio is built so that
such a program can show pictures and nothing more.

## Who can see and do what

- A personal token (stu_…) or the dashboard's session cookie acts as its user, on that user's projects, files,
  renders and downloads only. Another user's project answers exactly as a missing one (404).
- A bot key (stb_…) acts on the idea board for the person who issued it: it posts under its own name, but votes,
  spends the write budget and owns research records as that person. A person holds at most 5 bot keys.
- A render-node key (stn_…) only claims jobs, reads the files of the job it holds and posts its progress and
  outputs; it cannot call the user API.
- A research record is changed or deleted only by the person who created it (through any of their credentials)
  or an admin (ADMIN_USER_IDS); its author field is set by the server and never changes.
- A write made with the session cookie (every method but GET, HEAD and OPTIONS, on every endpoint) is accepted
  only from the dashboard's own origin ({{BASE_URL}}): its Origin header must match, or with no Origin,
  Sec-Fetch-Site must be "same-origin". Anything else is 403 and changes nothing; its JSON body must be
  Content-Type: application/json (else 415). Token calls are not subject to this: a token is never sent by a
  browser on its own.
- "?token=" works on the JSON API, file and video downloads and event streams; it never signs anyone in on a page
  a browser shows. Do not put your token in links you hand out: use a share link.
- An MCP tool reaches only the resource its arguments name: slugs, file paths, render file names and ids are
  checked as such, by the REST API's own rules, before a request is built, and a request whose path the URL parser
  or router would read differently (dot segments, encoded slashes or backslashes, a query or fragment) is never
  sent. No MCP answer carries a credential (token fields are dropped; any stu_/stb_/stn_ credential in text reads
  [redacted]), so an agent steered by a hostile file or page cannot copy its token out through a tool.
- The session cookie has one reader, and it applies the cross-site rule above whenever the cookie is used, whatever
  else the request carries: a sign-out posted from another site with "?token=x" or a junk Authorization header is
  403 and the session stays valid.
- A rotated or revoked token, bot key or node key, and a signed-out or expired session, stop working on the very
  next request, everywhere. Every request asks the database whether its credential is still valid; an answer is
  sent, and anything is written, stored, called or fetched on the caller's behalf, only once the database has said
  yes (a write made together with that question is undone when the answer is no).
- A node key reads a project only through a job it holds now: running, and claimed by that node. Once the job is
  done, failed, cancelled or given to another node after its lease lapsed, its file list, files and segments are
  404 "no such job held by this node", as for another node's job.
- A bot's vote only adds: it never takes back the vote its owner (or another of their bots) already cast, so a bot
  that votes for the existing idea after a 409, as it is told to, cannot undo its owner's vote. A bot or node key
  on a studio route is 401 naming the key's kind ("a bot key cannot be used on studio routes; use a personal
  token").
- Webhooks call only public internet addresses: the host is reduced to its address first, so every spelling of
  loopback (127.1, 2130706433, 0x7f.1, [::1], [::ffff:127.0.0.1], [64:ff9b::7f00:1]) and every private,
  link-local, unique-local, CGNAT, multicast, unspecified, documentation or reserved address, and names such as
  localhost or *.internal, are a 400 naming why, locally too, unless the operator lists the receiver in
  WEBHOOK_ALLOWED_HOSTS (hosts, addresses, CIDR ranges); the studio itself never. A public name that resolves to a
  private address cannot be checked (a Worker has no DNS resolver): on Cloudflare a Worker's fetch reaches only
  the public internet, but a self-hosted workerd reaches whatever its machine can, so its network must not rely on
  this check alone.

## Apps connected through OAuth (MCP clients)

MCP clients (Claude, ChatGPT, editors) connect to /mcp through OAuth 2.1 instead of holding a personal token.
The threats and what answers each:

- A grant is narrower than its person: it carries only the scopes the person ticked on the consent page
  (projects:read, projects:write, render, ideas), and its access token is accepted on /mcp only (its audience,
  {{BASE_URL}}/mcp): on every other route it is 401. The MCP tools a grant's scopes do not cover are not listed and
  a call to one is "tool not found"; every REST route a tool then reaches checks the scopes again (403
  insufficient_scope), and account routes (token rotation, bot and node keys, the webhook signing secret, share
  links, connected apps) are closed to every grant, so a grant can never read or become the personal token.
- Redirect URIs match the registered ones exactly (https, or http on a loopback host); a request with any other
  is refused on a page here and never redirected. PKCE with S256 is required of every client (no plain, no
  omission); a code works once, with its verifier and its redirect URI, within minutes. state is returned as
  sent, and responses carry iss.
- Tokens, codes and client secrets are stored only as SHA-256 hashes (KV), and what a grant knows of its person is
  encrypted with a key only the token unwraps. Access tokens last an hour; refresh tokens rotate on use; a grant
  lasts 30 days.
- The consent page is on this origin, runs no script, cannot be framed (frame-ancestors 'none', X-Frame-Options:
  DENY) and is never cached. It shows the app's name as text (escaped, cut to 80 characters, marked unverified
  unless it comes from a client ID metadata document's domain), where the answer goes (the redirect host, with a
  warning for an app on this computer) and each scope. Its form carries a one-time handle bound to this browser
  (a __Host- cookie) and a nonce bound to the signed-in session; the post obeys the cross-site rule above, so a
  post from another site, another session or another browser, or without the nonce, is refused and grants
  nothing.
- Revoking: Disconnect on the dashboard (Connected apps), DELETE /api/me/apps/:id, the client's own revocation,
  or rotating the personal token, which disconnects every app of the person. Grants live in KV, which is
  eventually consistent: in another location a revoked access token may be accepted for up to a minute.
- A client ID metadata document is fetched only from the public internet (5 KB, 10 s), never from this studio's
  own routes.

## Where user content is served from

Everything a project author wrote is served from the content origin, {{CONTENT_URL}}, which browsers treat as a
different site from the API and dashboard ({{BASE_URL}}); in production it is a separate registrable domain.

- The content origin reads no cookie and no token and sets no cookie. Its only authority is the capability in the
  URL (/c/<capability>/…): an encrypted (AES-GCM) and HMAC-signed, expiring, read-only grant for one project (its
  play page and files) or one render. It is opaque: no decoding of it shows whose it is or what it points at.
  Dashboard and /play/<slug> links last 1 hour; share links (POST /api/projects/:slug/share) 1 day by default, 60 s
  to 7 days. A link stops working when it expires, when its owner rotates their token, when the project or render
  is deleted, or when any byte of it is changed (403). Links made before capabilities were encrypted (readable,
  signed only) no longer work: open the project again or make a new share link.
- Pages there run sandboxed in an opaque origin (Content-Security-Policy: sandbox allow-scripts, and sources
  limited to the content origin): a composition's script cannot read cookies or storage, submit forms, open
  popups, navigate the top window, or fetch anything but the content origin — so it cannot call the API at all.
- On the API origin, project files a browser could execute (HTML, SVG, XML, JavaScript, PDF and unknown types)
  are sent only as attachments with "Content-Security-Policy: sandbox"; images, audio, video, fonts, JSON, text
  and CSS come inline. Every response has X-Content-Type-Options: nosniff, Referrer-Policy, X-Frame-Options: DENY
  and a CSP (the dashboard runs only its own scripts; API responses get a deny-all policy); HSTS over https.
- The dashboard loads images only from itself and the content origin (its CSP's img-src), so nothing written by
  someone else makes a viewer's browser call another site: a research record's cover_url on another site is kept
  as written but shown as a link (rel=noreferrer) a person may choose to open, never loaded for them.
- Previews listen on the render node's loopback interface unless the node's operator sets PREVIEW_HOST. A
  preview's URL carries a 43-character random secret as its first path segment, drawn for each preview and shown
  only to the owner; any request without it gets a bare 404. A preview stops after 10 minutes without a request.
- Links we hand out are built from BASE_URL and CONTENT_URL, never from the request's Host header.
- Configuration is parsed once, against one schema, before any request is served: a setting the schema refuses (a
  BASE_URL that is not an origin, a CONTENT_URL on the API's host, a limit that is not a number, a short
  TOKEN_SECRET, half an OAuth pair) is never replaced by a default. Every request then answers 500 "server
  misconfigured: <setting>: <problem>" (code misconfigured) and nothing else runs; a secret's value is never shown.

## What a composition may and may not do on a render node

Render, snapshot and check pages reach their own project's files and GSAP (the jsDelivr, unpkg and cdnjs URLs of
gsap, answered from the node's own copy of 3.14.2), nothing else:

- no fetch, XHR, WebSocket, WebTransport, EventSource, beacon or ping; no WebRTC (STUN or TURN); no form posts,
  popups, workers or service workers; no navigation away; and no other port on the machine (the studio, previews,
  the node itself). Inline scripts, eval, inline styles, data: and blob: URLs and frames of the project's own
  files are allowed; dialogs and downloads are not.
- Three layers each stop what they can on their own: the page's Content-Security-Policy (with sandbox), Chromium
  switches (every request goes to a proxy that refuses it, only the render's own server is reached directly, no
  host name resolves, WebRTC gets no UDP), and request interception. In production the render node's container has
  no internet either: it reaches only the Worker's host. Its image holds only what the node runs: Debian's Chromium
  and ffmpeg and the node's own npm packages (none of the Worker's, no second, npm-shipped browser or ffmpeg).
- Every blocked attempt is one line in the render's log, "blocked network access: <channel> to <target>" (at most
  25 per page); check reports it as a request-blocked warning. A render still finishes with it as a finding; a
  strict render fails on it. Likewise a composition whose timeline never registers on window.__timelines renders
  as a still picture with a finding saying so, and fails a strict render; so does a script error in any
  composition file ("script error in compositions/intro.html: ReferenceError: ..."), also one raised after loading
  by a timer or by a timeline callback while a frame is sought ("script error in compositions/intro.html while
  seeking timeline "intro": Error: ..."; the other timelines keep seeking), and a sub-composition that
  did not mount ("sub-composition compositions/x.html did not mount: it could not be loaded: HTTP 404").
- A sub-composition's inline scripts run in their own function scope, with document, gsap, window.__timelines and
  window.__hyperframes scoped to its host (its selectors find only its own elements); its <style> applies only
  inside its host. This is a convenience for writing compositions, not a security boundary: every file of a
  project runs in the same page with the same rights.
- Fonts: a Google Fonts stylesheet a composition links or @imports (fonts.googleapis.com /css or /css2) is fetched
  by the Worker, never by the page: once per URL, with its fonts.gstatic.com font files (at most 10 stylesheets per
  project, for renders and the play page alike, 120 font files per stylesheet, 4 MiB per file), kept in the
  project's own folder in R2, counted in its owner's storage quota, and handed to the node with the job's files;
  the page then loads it from the render's own server. Nothing else is fetched on a composition's behalf. Families
  the studio bundles (Inter, Roboto, Montserrat, ... and aliases such as Arial or Helvetica) come from the node
  itself. Text in a family nobody supplies is a "font fallback" line in the log and a font-fallback warning in
  check; a strict render fails on it.
- Every stage is bounded: loading 30 s, registering its timeline 10 s, each frame's seek, capture and encoder
  hand-off 10 s, each ffmpeg step 120 s plus 2 s per second of media. A composition that hangs fails the render
  once, with a line naming the stage and frame ("frame 412 of 900 (at 13.700 s) did not finish seeking in 10 s"),
  and its browsers and ffmpeg processes are killed.
- Chromium and ffmpeg are tied to the node process by the kernel's parent-death signal: however the node dies,
  even by SIGKILL, none of them outlives it; the node's temporary folders are removed when each job ends and swept
  at the next start after a crash.
- Chromium, ffmpeg and ffprobe start with an allow-listed environment (PATH, HOME, TMPDIR, locale, time zone,
  library and fontconfig paths), never the node's own: its NODE_KEY and any other secret of the node are not there
  for a composition, or an exploit of the browser, to read.

## The command-line client

- The studio CLI prints what the studio sends back (lint findings, render log lines, errors, names) with every
  terminal control removed: escape sequences (window title, screen clearing, cursor moves, clipboard writes), other
  control characters including a bare carriage return, and bidirectional controls. A composition's words show as
  words; they cannot rewrite the terminal.
- studio push uploads only regular files inside the folder: a symbolic link (to a file or a folder, inside or out),
  a FIFO, a socket or a device is skipped with a line naming it, never followed or read.

## Limits

- Uploads: {{MAX_FILE_MB}} MiB per file; JSON bodies 1 MiB (POST /api/projects: {{MAX_FILE_MB}} MiB for the whole
  body, since its html and files are files). Past a limit: 413, never read whole, nothing written.
  An Idempotency-Key reads the body ahead of its route with that route's own limit, never the upload limit.
- Storage: every write of a user's object (uploads of any encoding or length, directories, new projects, render
  nodes' snapshots and renders, cached fonts) reserves room in that user's quota before any byte is kept, and
  deletes go through the same per-user count, so concurrent requests can neither pass the quota nor free the same
  bytes twice; the count is checked against R2 an hour after it changes.
- Names: file paths, project names and createdBy refuse control characters, bidirectional controls and zero-width
  or other invisible characters (400 naming the character); "..", "." segments and backslashes are refused in any
  percent-encoded spelling.
- Per user, across projects: 3 renders in progress, 2 snapshots and 2 checks in flight, 3 previews running;
  past one, 429 with Retry-After and nothing queued. Every render ends within 30 minutes of its POST.
- A composition's size: at most ${LIMITS.maxSide} px a side and 4096x2160 in area, ${LIMITS.maxFps} fps, ${LIMITS.maxDurationSeconds} s and ${LIMITS.maxFrames.toLocaleString("en-US")} frames, so
  one page cannot make a shared node allocate without bound. The Worker refuses a render, snapshot, check or
  preview of a larger one (400, nothing queued) and a render node checks again before starting a browser, and
  once the page has loaded, before sizing its viewport.
- Idea board: 30 writes a minute per person, one vote per person per idea or enrichment.
- Public stats count a visitor once their signed cookie comes back, a page view once per visitor, page and 30
  minutes (at most 20 pages); no IP address or user agent is stored.`;
