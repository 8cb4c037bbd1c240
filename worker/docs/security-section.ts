// The security model of GET /api/docs: who can see and do what, where user content lives, what a composition may
// and may not do, and the limits. One place, so an agent or a reviewer reads the whole model at once; the
// sections of each endpoint repeat only what a caller of that endpoint needs.
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

## Where user content is served from

Everything a project author wrote is served from the content origin, {{CONTENT_URL}}, which browsers treat as a
different site from the API and dashboard ({{BASE_URL}}); in production it is a separate registrable domain.

- The content origin reads no cookie and no token and sets no cookie. Its only authority is the capability in the
  URL (/c/<capability>/…): an HMAC-signed, expiring, read-only grant for one project (its play page and files) or
  one render. Dashboard and /play/<slug> links last 1 hour; share links (POST /api/projects/:slug/share) 1 day by
  default, 60 s to 7 days. A link stops working when it expires, when its owner rotates their token, when the
  project or render is deleted, or when any byte of it is changed (403).
- Pages there run sandboxed in an opaque origin (Content-Security-Policy: sandbox allow-scripts, and sources
  limited to the content origin): a composition's script cannot read cookies or storage, submit forms, open
  popups, navigate the top window, or fetch anything but the content origin — so it cannot call the API at all.
- On the API origin, project files a browser could execute (HTML, SVG, XML, JavaScript, PDF and unknown types)
  are sent only as attachments with "Content-Security-Policy: sandbox"; images, audio, video, fonts, JSON, text
  and CSS come inline. Every response has X-Content-Type-Options: nosniff, Referrer-Policy, X-Frame-Options: DENY
  and a CSP (the dashboard runs only its own scripts; API responses get a deny-all policy); HSTS over https.
- Previews listen on the render node's loopback interface unless the node's operator sets PREVIEW_HOST. A
  preview's URL carries a 43-character random secret as its first path segment, drawn for each preview and shown
  only to the owner; any request without it gets a bare 404. A preview stops after 10 minutes without a request.
- Links we hand out are built from BASE_URL and CONTENT_URL, never from the request's Host header.

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
  project, 120 font files per stylesheet, 4 MiB per file), kept in R2 and handed to the node with the job's files;
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

## Limits

- Uploads: {{MAX_FILE_MB}} MiB per file; JSON bodies 1 MiB (POST /api/projects: {{MAX_FILE_MB}} MiB for the whole
  body, since its html and files are files). Past a limit: 413, never read whole, nothing written.
- Names: file paths, project names and createdBy refuse control characters, bidirectional controls and zero-width
  or other invisible characters (400 naming the character); "..", "." segments and backslashes are refused in any
  percent-encoded spelling.
- Per user, across projects: 3 renders in progress, 2 snapshots and 2 checks in flight, 3 previews running;
  past one, 429 with Retry-After and nothing queued. Every render ends within 30 minutes of its POST.
- Idea board: 30 writes a minute per person, one vote per person per idea or enrichment.
- Public stats count a visitor once their signed cookie comes back, a page view once per visitor, page and 30
  minutes (at most 20 pages); no IP address or user agent is stored.`;
