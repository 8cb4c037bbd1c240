// No MCP answer carries a credential. The agent already holds its token and never needs it back, while a tool's
// answer ends up in transcripts and logs, and a prompt-injected agent (a hostile composition, file or idea it read)
// can be told to copy whatever it sees somewhere else. Two layers, each applied to every tool by construction, not
// tool by tool:
//  - tool-result.ts turns each REST body into a tool result through withoutCredentialFields: `token` and `curl`
//    (a curl line with the token in it) are dropped at any depth. A deny-list of field names rather than a
//    per-tool allow-list, because tools answer with the REST body so agents see what the REST docs describe; a
//    route that adds a token field later is covered without touching its tool.
//  - CredentialRedactingTransport rewrites every message /mcp sends (results, errors, progress notifications):
//    any string shaped like a studio credential (stu_, stb_ or stn_ and 43 base64url characters) and the
//    caller's own presented token become "[redacted]". This also covers text no field rule sees: a message that
//    quotes a token, or a project file that contains one (read_file shows the file with the token redacted).
import { StreamableHTTPTransport } from "@hono/mcp";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { TOKEN_PREFIX } from "../auth/tokens.ts";

export const REDACTED = "[redacted]";

/** Fields that hold a credential in a REST body (GET /api/me has both). */
const CREDENTIAL_FIELDS = new Set(["token", "curl"]);

/** A prefix and 32 bytes in base64url: every personal token, bot key and node key the studio issues. */
const CREDENTIAL_SHAPE = new RegExp(`(?:${Object.values(TOKEN_PREFIX).join("|")})[A-Za-z0-9_-]{43}`, "g");

/** `value` (a parsed JSON body) without credential fields, at any depth. */
export function withoutCredentialFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCredentialFields);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !CREDENTIAL_FIELDS.has(key))
        .map(([key, inner]) => [key, withoutCredentialFields(inner)]),
    );
  }
  return value;
}

/** `value` with every credential-shaped string, and `presented` wherever it appears, replaced by REDACTED. */
export function redactCredentials(value: unknown, presented: string): unknown {
  if (typeof value === "string") {
    const shaped = value.replace(CREDENTIAL_SHAPE, REDACTED);
    return presented.length >= 8 ? shaped.replaceAll(presented, REDACTED) : shaped;
  }
  if (Array.isArray(value)) return value.map((inner) => redactCredentials(inner, presented));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, redactCredentials(inner, presented)]));
  }
  return value;
}

/** The Streamable HTTP transport of /mcp, redacting credentials from everything it sends. */
export class CredentialRedactingTransport extends StreamableHTTPTransport {
  constructor(private readonly presented: string) {
    super();
  }

  override send(message: JSONRPCMessage, options?: Parameters<StreamableHTTPTransport["send"]>[1]): Promise<void> {
    // The same JSON shape with some strings replaced, so still the same message.
    return super.send(redactCredentials(message, this.presented) as JSONRPCMessage, options);
  }
}
