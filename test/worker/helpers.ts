// Talking to the real Worker (SELF) the way a client would: sign in, then call the API with the token.
import { SELF } from "cloudflare:test";

export const BASE = "http://studio.test";

export interface Session {
  token: string;
  cookie: string;
  userId: string;
}

export async function signIn(name: string): Promise<Session> {
  const res = await SELF.fetch(`${BASE}/auth/dev/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: { id: string } };
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
  return { token: body.token, cookie, userId: body.user.id };
}

export function api(token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (token) (init.headers as Record<string, string>).Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    if (typeof body === "string" || body instanceof Uint8Array || body instanceof ArrayBuffer) {
      init.body = body as BodyInit;
    } else {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)["Content-Type"] = "application/json";
    }
  }
  return SELF.fetch(`${BASE}${path}`, init);
}

export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

export async function createProject(token: string, name: string, extra: Record<string, unknown> = {}) {
  const res = await api(token, "POST", "/api/projects", { name, ...extra });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return json<{ slug: string }>(res);
}

/** A file PUT of `bytes` zero bytes sent chunked (no Content-Length), as a client that cannot know the length does. */
export function putChunked(s: Session, slug: string, path: string, bytes: number) {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const n = Math.min(64 * 1024, bytes - sent);
      controller.enqueue(new Uint8Array(n));
      sent += n;
    },
  });
  return SELF.fetch(`${BASE}/api/projects/${slug}/files/${path}`, { method: "PUT", headers: { Authorization: `Bearer ${s.token}` }, body });
}
