// The agents' part of GET /api/docs: composition rules, the MCP server, webhooks, /llms.txt and the skill.
// {{BASE_URL}} and {{TOKEN}} are filled in per caller; {{COMPOSITION_RULES}} from composition-rules.ts.
export const agentsSection = `# For agents

## Composition rules

{{COMPOSITION_RULES}}

The starter composition (POST /api/projects without html) follows every rule and passes lint and check with no
findings: copy its structure.

## The loop

make (POST /api/projects, PUT files) → lint (fix every error) → check (browser and layout findings) → snapshot
(look at the frames) → render (quality draft first) → fix and repeat. {{BASE_URL}}/skill.md teaches it with
worked examples; {{BASE_URL}}/llms.txt is the index for language models.

## MCP server

  POST /mcp   Streamable HTTP, stateless: no session id, GET and DELETE answer 405. Protocol revisions 2025-11-25,
              2025-06-18, 2025-03-26, 2024-11-05 and 2024-10-07 (every one the official MCP SDK serves).

### Connecting with a token

Send your personal token (the dashboard shows it; GET /api/me answers it) as "Authorization: Bearer <token>" on
every request:

  {"mcpServers": {"studio": {"url": "{{BASE_URL}}/mcp", "headers": {"Authorization": "Bearer {{TOKEN}}"}}}}

A personal token sees every tool, resource and prompt; an idea-board bot key sees only list_ideas, check_idea,
post_idea, vote_idea and comment_idea; a render-node key is refused (403); no token or a wrong one is a 401 with
"WWW-Authenticate: Bearer realm="studio"". Rotating your token ends every client using the old one.

### Tools

get_account (who you are and your storage against its quota; GET /api/me without the token), list_projects,
create_project, get_project, delete_project, list_files, read_file, write_file, delete_file, lint, check, snapshot
(the PNGs as image content), render, get_render, cancel_render, list_renders, delete_render (by filename),
list_ideas, check_idea, post_idea, vote_idea, comment_idea. Each tool calls the REST endpoint above with your
credential, so limits, messages and codes are the same.

Results: every tool declares an outputSchema, and its structuredContent is the REST answer (the same fields as the
endpoint's response in the OpenAPI document) with every link made absolute, plus "links" (absolute REST URLs of the
project or render: project, files, render, download) where a next call needs them; the text beside it is a short
summary (lint and check list their findings one per line). A REST error is a tool error (isError) whose text and
structuredContent are the REST error body plus its "status".

render waits up to 25 s: a render that ends in time is answered with its final state and links.download; one that
does not is answered with a handle (id, status, progress, and "next": call get_render with the slug). Meanwhile, when
the client sends a progressToken, a progress notification goes out every second (progress = percent of frames
captured, total 100). wait: true waits until the render ends however long it takes; wait: false answers at once.

Identifiers are checked before any request is made, by the rules of a REST URL: slug (a-z, 0-9 and -, at most 64
characters), path (project-relative; no ".", ".." or empty segments, backslashes, NUL or invisible characters, in
any percent-encoded spelling; at most 512 characters), filename (a render's file name) and idea id; a bad one is a
tool error naming the argument ("Input validation error: ... path may not contain '..' at path") and nothing is
sent. No answer carries a credential: token fields are left out, and a token in any text (a file holding one
included) reads [redacted].
An MCP request body is at most 10 MiB (413): upload larger assets with PUT .../files/<path>. read_file returns
files up to 2 MiB.

### Resources and prompts

Project files are resources: studio://projects/<slug> (the project and every file with its URI, JSON) and
studio://projects/<slug>/files/<path> (one file, each path segment percent-encoded: text, or a base64 blob, with its
content type; up to 2 MiB). resources/list names your newest projects and their files; the slug completes. A URI
must be in normal form (no "." or ".." segments in any encoding, no query or fragment) and its slug and path follow
the rules above; anything else is an "invalid resource URI" error and nothing is read.
The prompt compose_video (arguments: brief, slug) hands an agent the composition rules and the loop with its tools.

### Connecting through OAuth (no token to paste)

Clients that connect to remote MCP servers through OAuth 2.1 (Claude's and ChatGPT's connectors, editors) need only
the URL {{BASE_URL}}/mcp. Its 401 names the protected-resource metadata
({{BASE_URL}}/.well-known/oauth-protected-resource/mcp), which names this studio as the authorization server
({{BASE_URL}}/.well-known/oauth-authorization-server). A client registers itself (POST /oauth/register, RFC 7591)
or uses a client ID metadata document (an https client_id), sends the person to /oauth/authorize with PKCE (S256
only) and resource={{BASE_URL}}/mcp; the person signs in if needed and allows or denies on the consent page,
choosing the scopes; the client exchanges the code at /oauth/token (which also refreshes and revokes). Scopes:
projects:read (projects, files, renders, account and storage; tools get_account, list_projects, get_project,
list_files, read_file, lint, get_render, list_renders), projects:write (create_project, delete_project,
write_file, delete_file, delete_render), render (render, cancel_render, check; snapshot needs projects:read too),
ideas (the idea tools). A token sees only the tools its scopes allow. Access tokens last an hour, refresh tokens
rotate, and a grant lasts 30 days or until the person disconnects the app (dashboard, Connected apps) or rotates
their personal token. An OAuth access token works on /mcp only, never on the REST API.

## Webhooks

A render calls a webhook when it ends (done, failed or cancelled): its own "webhookUrl" render option, else its
project's webhook.

  POST   /api/webhooks/secret            → 201 { secret, createdAt }   a new signing secret ("whsec_..."), shown only
                                           here; calling it again rotates (the old secret signs nothing more)
  GET    /api/webhooks/secret            → { configured, createdAt }
  PUT    /api/projects/:slug/webhook     { url } → { slug, webhookUrl }
  GET    /api/projects/:slug/webhook     → { slug, webhookUrl }   (null when none)
  DELETE /api/projects/:slug/webhook     → { slug, webhookUrl: null }
  GET    /api/renders/:id/deliveries     → { renderId, deliveries: [{ id, renderId, slug, event, url, status,
                                           createdAt, nextAttemptAt, attempts: [{ n, at, status, error, durationMs }] }] }

The body is { type: "render.done" | "render.failed" | "render.cancelled", timestamp, data: <render state, with an
absolute downloadUrl> }, signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature;
verify with any Standard Webhooks library and your secret); the OpenAPI document ({{BASE_URL}}/api/openapi.json)
describes each body and header in its "webhooks" section (render.done, render.failed, render.cancelled). A delivery is attempted at once; a receiver that does
not answer 2xx within 10 s is tried again after 5 s, 30 s, 2 min, 10 min, 30 min and 2 h (seven attempts), with the
same webhook-id, then the delivery is "failed". Redirects are not followed. Delivery status: pending, delivered,
failed or refused. A URL must be http or https without user name or password, at most 2000 characters, and may not
point at the studio itself (either origin), nor at an address that is not on the public internet (loopback,
private, link-local, unique-local, CGNAT, multicast, unspecified, documentation or reserved, in any spelling:
127.1, 2130706433, [::ffff:127.0.0.1] and [64:ff9b::7f00:1] are all loopback) or a name such as localhost,
*.local or *.internal, unless the studio's operator lists it in WEBHOOK_ALLOWED_HOSTS. A project webhook breaking these rules is a 400; a render's webhookUrl is checked for its form when the
render starts (400) and for its address when sent (status "refused", nothing sent). Without a secret, the first
delivery creates one: rotate to see it. The last 500 deliveries per user are kept. A project's webhook belongs to
that project: deleting the project and making one with the same name starts without a webhook.
`;
