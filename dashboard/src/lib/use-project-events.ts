// The project's own event stream (GET /api/projects/:slug/events): a `render` event first on every (re)connection
// (the current or last render) and at each render's start and end, whoever started it, and a `files` event whenever
// a file is written or deleted, by this page or by an agent. EventSource reconnects by itself (and the first event
// then brings a render that started meanwhile); a stream that failed for good is reopened.
import { useEffect, useRef, useState } from "preact/hooks";
import { stateOf } from "./render-events.ts";
import type { RenderState } from "./types.ts";

export interface FilesEvent {
  written: string[];
  deleted: string[];
}

export interface ProjectEventHandlers {
  files: (event: FilesEvent) => void;
  render: (state: RenderState) => void;
}

function parse(event: Event): unknown {
  try {
    return JSON.parse((event as MessageEvent<string>).data);
  } catch {
    return null; // a malformed event changes nothing
  }
}

export function useProjectEvents(slug: string, handlers: ProjectEventHandlers): void {
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const source = new EventSource(`/api/projects/${encodeURIComponent(slug)}/events`);
    source.addEventListener("files", (event) => {
      const data = parse(event) as Partial<FilesEvent> | null;
      if (data) handlersRef.current.files({ written: data.written ?? [], deleted: data.deleted ?? [] });
    });
    source.addEventListener("render", (event) => {
      const state = stateOf(parse(event));
      if (state) handlersRef.current.render(state);
    });
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) reopen = setTimeout(() => setGeneration((g) => g + 1), 3000);
    };
    return () => {
      source.close();
      clearTimeout(reopen);
    };
  }, [slug, generation]);
}
