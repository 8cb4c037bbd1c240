// Follows a render on its event stream until it ends, drawing progress; falls back to reading the render state if
// the stream closes first. Returns the final render state.
import type { Client } from "./client.ts";
import { readSse } from "./sse.ts";
import type { ProgressInfo } from "./progress-bar.ts";

export interface RenderState {
  id: string;
  slug: string;
  status: string;
  filename: string;
  downloadUrl: string | null;
  lastLine: string;
  error: string | null;
  progress: (ProgressInfo & { frame: number; total: number }) | null;
  lines?: string[];
}

const ENDED = new Set(["done", "failed", "cancelled"]);

export async function followRender(client: Client, slug: string, renderId: string, onProgress: (p: ProgressInfo) => void, onLine: (line: string) => void): Promise<RenderState> {
  const controller = new AbortController();
  try {
    const res = await fetch(`${client.url}/api/projects/${slug}/render/events`, {
      headers: { Authorization: `Bearer ${client.token}`, Accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (res.ok && res.body) {
      for await (const event of readSse(res.body)) {
        const data = JSON.parse(event.data) as Partial<RenderState> & { line?: string };
        if ((event.event === "snapshot" || event.event === "end") && data.id === renderId && ENDED.has(data.status ?? "")) break;
        if (event.event === "line") {
          if (data.line) onLine(data.line);
          if (data.progress) onProgress(data.progress);
        }
      }
    }
  } finally {
    controller.abort();
  }
  // The state with its full log; it may take a moment for a closed stream's render to end.
  for (;;) {
    const state = await client.json<RenderState>("GET", `/api/projects/${slug}/render`);
    if (state.id !== renderId || ENDED.has(state.status)) return state;
    await new Promise((r) => setTimeout(r, 1000));
  }
}
