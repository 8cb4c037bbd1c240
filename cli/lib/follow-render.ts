// Follows a render on its event stream until it ends, drawing progress; falls back to reading the render state if
// the stream closes first. Returns the final state with its log. Every event and answer is read with the render
// contract's schemas (core/protocol/render-state.ts): one that does not fit stops the CLI with a clear error.
import { isInProgress, RENDER_EVENTS, RenderWithLogSchema, type RenderProgress, type RenderWithLog } from "../../core/protocol/render-state.ts";
import { unreadable, type Client } from "./client.ts";
import { readSse } from "./sse.ts";

export async function followRender(
  client: Client,
  slug: string,
  renderId: string,
  onProgress: (p: RenderProgress) => void,
  onLine: (line: string) => void,
): Promise<RenderWithLog> {
  const controller = new AbortController();
  try {
    const res = await fetch(`${client.url}/api/projects/${slug}/render/events`, {
      headers: { Authorization: `Bearer ${client.token}`, Accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (res.ok && res.body) {
      for await (const event of readSse(res.body)) {
        if (!Object.hasOwn(RENDER_EVENTS, event.event)) continue; // comments and events of later servers
        const kind = event.event as keyof typeof RENDER_EVENTS;
        const parsed = RENDER_EVENTS[kind].safeParse(JSON.parse(event.data));
        if (!parsed.success) throw unreadable(`a "${kind}" event`, parsed.error);
        const data = parsed.data;
        if (kind === "line" && "line" in data) {
          onLine(data.line);
          if (data.progress) onProgress(data.progress);
        } else if ((kind === "snapshot" || kind === "end") && "id" in data && data.id === renderId && !isInProgress(data.status)) {
          break;
        }
      }
    }
  } finally {
    controller.abort();
  }
  // The state with its full log; it may take a moment for a closed stream's render to end.
  for (;;) {
    const state = await client.read(RenderWithLogSchema, "GET", `/api/projects/${slug}/render`);
    if (state.id !== renderId || !isInProgress(state.status)) return state;
    await new Promise((r) => setTimeout(r, 1000));
  }
}
