// Follows the project's renders, whoever starts them: the page, an agent through the API or MCP, the CLI, another
// tab. The project's stream announces each render (first on every (re)connection, then at each start and end) and
// this page's POST answers with one; both come to `announce`, the one way a render is followed here. A render in
// progress gets its own stream (…/render/events: snapshot with the log so far, then start, line, end), closed by
// this side once the render ended, so no connection stays open between renders.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api } from "./api.ts";
import { applyAnnouncement, applyRenderEvent, EMPTY_RENDER, isRunning, type RenderView } from "./render-events.ts";
import type { RenderState } from "./types.ts";
import { parseJson } from "../../../core/parse-text.ts";
import { logWhy } from "./log-why.ts";

const EVENT_KINDS = ["snapshot", "start", "line", "end"] as const;
const REOPEN_MS = 3000;
const POLL_MS = 1500;

interface Follower {
  id: string | undefined;
  stopped: boolean;
  stop(): void;
}

/**
 * Opens the render's stream until the view shows it ended. EventSource reconnects by itself (resuming with
 * Last-Event-ID); a stream that failed for good is reopened after a pause while the render runs, and meanwhile
 * GET …/render is polled.
 */
function openFollower(base: string, id: string | undefined, apply: (kind: string, payload: unknown) => void, running: () => boolean): Follower {
  let source: EventSource | null = null;
  let poll: ReturnType<typeof setTimeout> | undefined;
  let reopen: ReturnType<typeof setTimeout> | undefined;
  const follower: Follower = {
    id,
    stopped: false,
    stop() {
      follower.stopped = true;
      source?.close();
      clearTimeout(poll);
      clearTimeout(reopen);
    },
  };
  const pollOnce = async () => {
    if (follower.stopped) return;
    try {
      apply("snapshot", await api<RenderState>(base));
    } catch (err) {
      logWhy("reading the render failed; the next poll tries again", err);
    }
    // Polling stands in for the stream only while the stream is down.
    if (!follower.stopped && running() && source?.readyState !== EventSource.OPEN) poll = setTimeout(pollOnce, POLL_MS);
    else if (!running()) follower.stop();
  };
  const open = () => {
    if (follower.stopped) return;
    const stream = new EventSource(`${base}/events`);
    source = stream;
    for (const kind of EVENT_KINDS) {
      stream.addEventListener(kind, (event) => {
        // Not JSON: the text as it came, which apply reads with the event's schema and reports as unreadable.
        const data = (event as MessageEvent<string>).data;
        const json = parseJson(data);
        apply(kind, json.ok ? json.value : data);
        // Ended (or opened on an ended render to read its log): the stream has nothing more to say.
        if (!running()) follower.stop();
      });
    }
    stream.onopen = () => clearTimeout(poll);
    stream.onerror = () => {
      if (follower.stopped) return;
      if (!running()) return follower.stop();
      clearTimeout(poll);
      void pollOnce();
      if (stream.readyState === EventSource.CLOSED) reopen = setTimeout(open, REOPEN_MS);
    };
  };
  open();
  return follower;
}

export interface RenderFollow {
  view: RenderView;
  /** A render announced by the project's stream or answered by this page's POST. */
  announce: (state: RenderState) => void;
  /** Something about the render the page could not read: shown in the render panel. */
  report: (problem: string) => void;
}

export function useRenderFollow(slug: string, onEnd: (state: RenderState) => void): RenderFollow {
  const [view, setView] = useState<RenderView>(EMPTY_RENDER);
  const viewRef = useRef(view);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  const follower = useRef<Follower | null>(null);
  /** Until the first announcement, the last render is shown as the page finds it, without a toast. */
  const opening = useRef(true);
  const base = `/api/projects/${encodeURIComponent(slug)}/render`;

  const set = useCallback((next: RenderView) => {
    viewRef.current = next;
    setView(next);
  }, []);

  // Events of the render's own stream: a render seen running that stops running has ended, once.
  const apply = useCallback((kind: string, payload: unknown) => {
    const wasRunning = isRunning(viewRef.current);
    set(applyRenderEvent(viewRef.current, kind, payload));
    if (wasRunning && !isRunning(viewRef.current)) onEndRef.current(viewRef.current.state);
  }, [set]);

  const announce = useCallback((state: RenderState) => {
    const { view: next, follow, ended } = applyAnnouncement(viewRef.current, state, opening.current);
    opening.current = false;
    set(next);
    if (ended) onEndRef.current(next.state);
    const current = follower.current;
    if (!follow || (current && !current.stopped && current.id === state.id)) return;
    current?.stop();
    follower.current = openFollower(base, state.id, apply, () => isRunning(viewRef.current));
  }, [base, apply, set]);

  const report = useCallback((problem: string) => set({ ...viewRef.current, problem }), [set]);

  useEffect(() => () => follower.current?.stop(), [base]);
  return { view, announce, report };
}
