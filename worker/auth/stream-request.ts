// The credential of a stream route's caller, and the request that hands it to the room (stream-credential.ts is
// the contract itself; reading it here needs the sign-in code, which the rooms do not).
import type { Context } from "hono";
import type { AppEnv } from "../http/context.ts";
import { unauthorized } from "../http/errors.ts";
import { grantOf } from "../oauth/oauth-caller.ts";
import { sessionCookie } from "./sessions.ts";
import { STREAM_CREDENTIAL_HEADER, type StreamCredential } from "./stream-credential.ts";
import { sha256Hex } from "./tokens.ts";

/** The credential of a request behind requireUser, as its stream will be known by. */
export async function streamCredentialOf(c: Context<AppEnv>): Promise<StreamCredential> {
  const kind = c.get("credential");
  const token = c.get("token");
  if (kind === "token" && token) return { kind, id: await sha256Hex(token) };
  const cookie = kind === "session" ? sessionCookie(c) : null;
  if (cookie) return { kind: "session", id: await sha256Hex(cookie) };
  const grant = kind === "oauth" ? grantOf(c.req.raw) : null;
  if (grant) return { kind: "oauth", id: grant.grantId };
  // requireUser let a caller through whose credential no stream could be ended by: refuse rather than stream.
  throw unauthorized("this credential cannot open an event stream");
}

/** The request a stream route forwards to its room: the caller's stream credential with it, and the client's
 * signal, so the room drops the stream when the client goes away. */
export async function streamRequest(c: Context<AppEnv>, url: string | URL): Promise<Request> {
  const headers = new Headers({ [STREAM_CREDENTIAL_HEADER]: JSON.stringify(await streamCredentialOf(c)) });
  return new Request(url, { headers, signal: c.req.raw.signal });
}
