// The studio's HTTP API for the CLI: JSON calls with the token, errors as StudioError with the API's message.
export class StudioError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    super(typeof body.error === "string" ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export interface Client {
  url: string;
  token: string;
  request(method: string, path: string, body?: BodyInit | object, headers?: Record<string, string>): Promise<Response>;
  json<T>(method: string, path: string, body?: object): Promise<T>;
}

export function createClient(url: string, token: string): Client {
  async function request(method: string, path: string, body?: BodyInit | object, headers: Record<string, string> = {}) {
    const isJson = body !== undefined && !(body instanceof Uint8Array) && typeof body !== "string" && !(body instanceof ReadableStream);
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(isJson ? { "Content-Type": "application/json" } : {}), ...headers },
      body: isJson ? JSON.stringify(body) : (body as BodyInit | undefined),
    });
    if (!res.ok) {
      const text = await res.text();
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        parsed = { error: text || `HTTP ${res.status}` };
      }
      throw new StudioError(res.status, parsed);
    }
    return res;
  }
  return {
    url,
    token,
    request,
    async json<T>(method: string, path: string, body?: object) {
      return (await (await request(method, path, body)).json()) as T;
    },
  };
}

/** Each segment percent-encoded, slashes kept. */
export const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");
