// The project's own event stream (GET /api/projects/:slug/events): a `render` event first on every (re)connection
// (the current or last render) and at each render's start and end, whoever started it, and a `files` event whenever
// a file is written or deleted, by this page or by an agent, and a `batch` event with the current or last batch at
// connection and at each batch start, row start, row end and batch end. EventSource reconnects by itself (and the first event
// then brings a render that started meanwhile); a stream that failed for good is reopened.
import { useEffect, useRef, useState } from "preact/hooks";
import * as z from "zod";
import { PROJECT_EVENTS } from "../../../core/protocol/render-state.ts";
import type { BatchState } from "./batch-view.ts";
import type { RenderState } from "./types.ts";
import { parseJson } from "../../../core/parse-text.ts";

export type FilesEvent = z.output<typeof PROJECT_EVENTS.files>;

export interface ProjectEventHandlers {
  files: (event: FilesEvent) => void;
  render: (state: RenderState) => void;
  batch: (state: BatchState) => void;
  /** An event this page cannot read (the contract, core/protocol/render-state.ts): shown, never guessed at. */
  problem: (message: string) => void;
}

/** The event's data read with its schema, or null after telling `problem` why not. */
function read<T>(schema: z.ZodType<T>, name: string, event: Event, problem: (message: string) => void): T | null {
  const json = parseJson((event as MessageEvent<string>).data);
  if (!json.ok) {
    problem(`the project's stream sent a "${name}" event that is not JSON; reload the page`);
    return null;
  }
  const parsed = schema.safeParse(json.value);
  if (parsed.success) return parsed.data;
  problem(`the project's stream sent a "${name}" event this page cannot read (${parsed.error.issues[0]?.message ?? "unknown shape"}); reload the page`);
  return null;
}

export function useProjectEvents(slug: string, handlers: ProjectEventHandlers): void {
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const source = new EventSource(`/api/projects/${encodeURIComponent(slug)}/events`);
    const problem = (message: string) => handlersRef.current.problem(message);
    source.addEventListener("files", (event) => {
      const data = read(PROJECT_EVENTS.files, "files", event, problem);
      if (data) handlersRef.current.files(data);
    });
    source.addEventListener("render", (event) => {
      const state = read(PROJECT_EVENTS.render, "render", event, problem);
      if (state) handlersRef.current.render(state);
    });
    source.addEventListener("batch", (event) => {
      const state = read(PROJECT_EVENTS.batch, "batch", event, problem);
      if (state) handlersRef.current.batch(state);
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
