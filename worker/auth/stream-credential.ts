// The credential an event stream was opened with, as the ProjectRoom keeps it beside the stream: its kind and an id
// that names that one credential and nothing else (the SHA-256 of a personal token or session cookie, the same
// hash D1 stores; an OAuth grant's id), never the secret. A rotation, revocation or sign-out names the same id when
// it tells the rooms (end-streams.ts), and the rooms' backstop asks D1 about the same hashes (stream-recheck.ts).
// Only the contract the rooms share: reading it off a request is stream-request.ts, so a room imports no sign-in code.
import * as z from "zod";
import { parseJson } from "../../core/parse-text.ts";

export const streamCredentialSchema = z.object({
  kind: z.enum(["token", "session", "oauth"]),
  id: z.string().min(1).max(128),
});
export type StreamCredential = z.infer<typeof streamCredentialSchema>;

/** A credential's end as rooms hear it: that one credential, or (no id) every credential of the kind. */
export interface CredentialEnd {
  kind: StreamCredential["kind"];
  id?: string;
}

/** How the Worker hands a stream's credential to its room (an internal request: nothing outside reaches a room). */
export const STREAM_CREDENTIAL_HEADER = "X-Studio-Stream-Credential";

/** The forwarded request's credential, as the room reads it; null when absent or not one (never from outside). */
export function carriedStreamCredential(request: Request): StreamCredential | null {
  const raw = request.headers.get(STREAM_CREDENTIAL_HEADER);
  if (!raw) return null;
  const json = parseJson(raw);
  if (!json.ok) return null; // only the Worker writes this header; a value it did not write is no credential
  const parsed = streamCredentialSchema.safeParse(json.value);
  return parsed.success ? parsed.data : null;
}

/** Whether an end names this credential. */
export function endsCredential(end: CredentialEnd, credential: StreamCredential): boolean {
  return end.kind === credential.kind && (end.id === undefined || end.id === credential.id);
}
