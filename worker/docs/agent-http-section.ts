// The part of GET /api/docs about HTTP behaviour an agent relies on: error codes (from the one table in
// worker/http/errors.ts, so the list cannot drift), 405, query values, pagination, read-your-writes bookmarks and
// idempotent creates.
import { ERROR_CODES } from "../http/errors.ts";
import { PAGE_LIMIT_MAX } from "../http/query.ts";
import { IDEMPOTENCY_TTL_HOURS } from "../http/idempotency.ts";

export function agentHttpSection(): string {
  const codes = Object.entries(ERROR_CODES)
    .map(([code, meaning]) => `  ${code}: ${meaning}`)
    .join("\n");
  return `# Error codes

Every error is { "error": "<message>", "code": "<code>" } (plus fields some errors add, e.g. the idea board's
409 { exists, idea }). The message is for people and may be reworded; the code is stable: branch on it.

${codes}

# Methods, query values, pages and retries

- A path the API serves with other methods answers 405 method_not_allowed with an Allow header listing them
  (PATCH /api/projects/<slug> → Allow: GET, HEAD, DELETE). A path it does not serve at all is 404.
- Query parameters are checked the same way on every endpoint that takes them (the OpenAPI document lists them):
  a boolean is true, false, 1 or 0 (a bare ?download or ?wait means true), a number must be a whole number in
  range, and any other value, or a parameter the endpoint does not take, is a 400 invalid_query naming it: ?wait=yes
  is refused, never silently taken as false. ?token= is accepted everywhere.
- Lists page with a cursor: GET /api/projects, GET /api/renders and GET /api/ideas take ?limit=<1-${PAGE_LIMIT_MAX}> and
  return "next" beside the list; pass it back as ?next=<cursor> (with the same filters) for the following page;
  "next" is null on the last page. Projects and renders without ?limit come whole, as before; ideas default to 20
  (and keep ?offset and "nextOffset"). A cursor is opaque and belongs to one list (another list's is 400
  invalid_cursor); it never reaches anything but the caller's own items.
- Read your own writes: the idea board, research, metrics and /api/stats may answer from a nearby database replica,
  slightly behind. Their answers carry an X-D1-Bookmark header; send back the latest one you got as X-D1-Bookmark
  and the next read is at least that recent (it sees your write). Without one, a read may lag; a malformed one is
  ignored.
- Every answer carries an X-Request-Id header: quote it when reporting a problem; it names the request's line in
  the studio's logs (which hold no token, user id or file name).
- GET /api/renders/<id> returns one render's state by the id POST .../render returned, in any state: live (with
  progress) while it is its project's current render, afterwards from what was stored (no progress, no log).
- Idempotency-Key: POST /api/projects, POST /api/projects/<slug>/render, POST /api/ideas and
  POST /api/ideas/<id>/comments take an "Idempotency-Key: <up to 255 printable ASCII characters>" header. The first
  answer (status and body) is stored for ${IDEMPOTENCY_TTL_HOURS} h and replayed, with "Idempotent-Replayed: true", to
  the same caller sending the same key again, so a retried POST never creates twice. The same key with a different
  method, path or body is 422 idempotency_key_reused; while the first request is still being answered, 409
  idempotency_in_progress (a first request unanswered after 15 minutes is taken as lost and the key starts over). Server errors (5xx), 401, 403 and 429 are not stored: the retry runs again. Keys are per caller: another
  user's key of the same value is theirs alone.
`;
}
