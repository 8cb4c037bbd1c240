// What the end-to-end tests do over HTTP against a running studio: an authorised call (JSON, text or bytes) and
// waiting for something to become true.

/** `method path` with the bearer token; an object body goes as JSON, a string or bytes as they are. */
export function callStudio(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  let payload: BodyInit | undefined;
  if (body instanceof Uint8Array) payload = body as Uint8Array<ArrayBuffer>;
  else if (typeof body === "string") payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers["Content-Type"] = "application/json";
  }
  return fetch(`${baseUrl}${path}`, { method, headers, body: payload });
}

/** Probes every 200 ms until it gives a truthy value, which it returns; fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
