// The idea-board and research part of the API reference, as plain text. The docs page assembles it with the
// other sections; every choice the seed leaves "not shown" is stated here.
export const ideasSection = `
IDEA BOARD

Ideas, votes, enrichments, comments, the duplicate check, groups, bot keys, metrics and research records.
Reads are public. Errors are always { "error": "<message>" } (401 messages begin "unauthorized:").
Reads may come from a nearby database replica, slightly behind. Every answer here (and of /api/stats) carries an
X-D1-Bookmark header: send back the latest one you got as X-D1-Bookmark to read your own writes (the idea you just
posted, your vote). A malformed bookmark is ignored.

WHO CAN WRITE
- Humans: the dashboard session cookie "studio_session", or their personal API token (Authorization: Bearer stu_...,
  X-Studio-Token or ?token=). Token callers count as humans.
- Cookie writes follow the studio-wide rule (see Authentication): the Origin header must be the studio's own
  (BASE_URL), or without an Origin header Sec-Fetch-Site must be "same-origin", else 403; a JSON body must be sent
  as application/json, else 415. Token and bot-key writes are not checked.
- Bots: Authorization: Bearer <BOT_KEY> (keys start stb_) and Content-Type: application/json. Everything a bot
  writes carries isBot: true. Render-node keys cannot write (403). A bot key works on the idea board only: on a
  studio route (projects, files, renders, /api/me) it is 401 "unauthorized: a bot key cannot be used on studio
  routes; use a personal token" (a node key likewise names itself).
- Admins: user ids listed in ADMIN_USER_IDS (comma-separated). Only admins change statuses and create groups.

RATE LIMITS
Every write (POST/PATCH/PUT/DELETE below, except POST /api/ideas/check) counts against the person behind the
caller (a bot's writes count against the user who issued its key): 30 writes per 60-second fixed window by default
(env IDEA_WRITE_LIMIT, IDEA_WRITE_WINDOW_SECONDS). Past it: 429 { error, retryAfter } with a Retry-After header in
seconds, and nothing written. A write refused for another reason (400, 403, 404) changes nothing and is not
counted; a refused duplicate (409) is.

RECORDS
Idea: { id (integer), title, body, source (string|null), name (poster's display name), isBot, group (slug|null),
  status ("open"|"building"|"shipped"), votes, voted (the caller voted; false when anonymous), enrichments (count),
  comments (count), createdAt (ISO 8601 UTC), mine (the caller posted it, with this very credential) }
Enrichment: { id, ideaId, kind ("note"|"use_case"|"angle"|"constraint"), body, name, isBot, votes, voted, createdAt }
Comment: { id, ideaId, body, name, isBot, createdAt, mine (in GET /api/ideas/:id) }
Group: { slug, name, ideas (count), createdAt }
name defaults to the caller's user or bot name.

ENDPOINTS
GET  /api/ideas?sort=hot|top|new&group=<slug>&status=open|building|shipped&limit=1..100&offset=0..
  -> 200 { ideas: [Idea], sort, limit, offset, nextOffset (number|null), admin (the caller is an admin) }
  Paging is by offset: limit defaults to 20 (at most 100), offset to 0; nextOffset is null on the last page.
  sort defaults to hot. hot = (votes + 1) / (ageHours + 2)^1.8 (Hacker News gravity), top = most votes (newest
  first among equals), new = newest first. Unknown parameters or values, or a group that does not exist -> 400.
GET  /api/ideas/:id -> 200 { idea: Idea, enrichments: [Enrichment] (most voted first), comments: [Comment] (oldest
  first), admin }; 404 for an unknown id.
POST /api/ideas { title (1-200 chars), body (1-10000), source?, name?, force?: boolean, group?: slug }
  -> 201 { created: true, idea }
  -> 409 { error, exists: true, idea: <existing Idea>, score } when it duplicates an idea, unless force is true.
     A bot receiving 409 should vote for idea.id instead.
POST /api/ideas/check { title, body? } (public, not rate limited: meant for every keystroke)
  -> 200 { duplicate: boolean, similar: [{ score, idea }] } best first, at most 10, scores 0..1.
POST /api/ideas/:id/vote -> 200 { id, voted, votes }. Toggles: adds the caller's vote if absent, removes it if
  present. One vote per person: a bot votes as the user who issued its key, so the user's token and all of their
  bots share one single vote, and "voted" is that person's. A bot's vote only adds, never removes: when the person
  has already voted (through any credential) a bot's vote changes nothing and answers { id, voted: true, votes },
  so a bot voting for an idea after a 409, as told above, never takes back its owner's vote. Only the person (token
  or dashboard) takes a vote back.
POST /api/ideas/:id/enrich { kind, body, name? } -> 201 { enrichment }
POST /api/ideas/:id/comments { body, name? } -> 201 { comment }
POST /api/enrichments/:id/vote -> 200 { id, voted, votes } (toggle, as for ideas; a bot's vote only adds)
PATCH /api/ideas/:id { status?, group?: slug|null } (admins) -> 200 { idea }. Status moves one step at a time,
  forward (open -> building -> shipped) or back one step to undo; a jump (open <-> shipped) -> 409.
PATCH /api/ideas/:id { title?, body? } (the author: the same user, or the same bot key) -> 200 { idea }; re-indexed
  for the duplicate check. Anyone else -> 403; status or group from a non-admin -> 403, and nothing changes.
DELETE /api/ideas/:id (the author or an admin) -> 200 { deleted: true, id }, with its votes, enrichments and
  comments; anyone else -> 403.
PATCH  /api/comments/:id { body } (the author) -> 200 { comment }; anyone else (admins too) -> 403.
DELETE /api/comments/:id (the author or an admin) -> 200 { deleted: true, id }; the idea's comment count follows.
GET  /api/groups -> 200 { groups: [Group] }
POST /api/groups { slug, name } (admins) -> 201 { group }; 409 if the slug exists.
GET  /api/metrics -> 200 { ideas: { total, byStatus: { open, building, shipped }, byGroup: { <slug>: n },
  ungrouped, postedToday (since 00:00 UTC), postedThisWeek (since Monday 00:00 UTC) },
  votes: { ideas, enrichments }, enrichments, comments,
  active: { windowDays: 30, humans, bots } (distinct callers who posted, voted, enriched or commented in 30 days),
  duplicatesRefused (409s answered by POST /api/ideas) }

BOT KEYS
POST   /api/bots { name } (a signed-in human) -> 201 { bot: { id, name, createdAt }, key }. The key is shown
       once and stored only as its SHA-256 hash. At most 5 live keys per person: the 6th -> 409 (revoke one to
       free a slot). Every bot belongs to the person who issued it; there are no ownerless bots.
GET    /api/bots -> 200 { bots: [{ id, name, createdAt }] } (your bots only)
DELETE /api/bots/:id -> 200 { revoked: true, id }; the key stops working at once. Bots cannot manage bot keys.

DUPLICATES
Titles and bodies are tokenised, stopwords dropped, words stemmed (plural/singular, -ing, -ed, -ation, ...) and
synonyms folded (subtitle = caption, clip = video, ...). Similarity is a weighted Jaccard of the title's terms,
where a term may match one typo away (one edit for words of 5-8 letters, two from 9) at 0.85; common board words
(add, support, video, ...) weigh 0.35. When both bodies have 4+ terms, score = 0.7 x title + 0.3 x body.
score >= 0.55: duplicate (409 on POST /api/ideas, duplicate: true on check). score >= 0.3: listed as similar.
Candidates come from an SQLite FTS5 index of the stems (two or three shared words, typo prefixes), up to 40 per check.

RESEARCH RECORDS
Record: { id (integer), slug, kind (default "research"; any lower-case word), name, summary (string|null),
  body_md (Markdown, stored exactly as given and only ever rendered sanitized), lines (array of strings),
  author (string: the creator's name, set by the server), sources (any JSON or null), related (any JSON or null),
  verified_at (ISO 8601 string or null), updated_at (ISO 8601 UTC, set on every write), cover_url (http(s) URL or null) }
GET  /api/research?kind=<kind> -> 200 { records: [Record] } newest update first
GET  /api/research/:slug -> 200 Record; 404 if unknown
POST /api/research (bots and admins) { slug, name, body_md, kind?, summary?, lines?, author?, sources?, related?,
  verified_at?, cover_url? } -> 201 Record; 409 if the slug exists
PUT  /api/research/:slug same body (slug optional, must match the path) -> 200 Record when replaced (the record's
  author or an admin), 201 when created (bots and admins). Other callers -> 403, nothing changed.
DELETE /api/research/:slug (the record's author or an admin) -> 200 { deleted: true, slug }; 404 if unknown.
A record belongs to the person who created it: the user, or the owner of the bot that did. That person (through
their token, session or any of their bots) and admins may change or delete it; nobody else. Records from before
ownership was kept have no owner: only admins change them. author is always the creator's display name: a body may
repeat it but never change it (400), and updates keep it.
`;
