// A running render watched as it renders: its live HLS playlist (liveUrl: the finished two-second segments so far,
// fragmented MP4) played with hls.js, loaded only when a render is watched. The playlist is asked for until it lists
// a first segment, then hls.js follows it (an EVENT playlist, reloaded as it grows). The page swaps this for the
// finished file's player when the render is done (render-panel.tsx). Same origin, the session cookie; the media
// element plays the MediaSource hls.js feeds it through a blob: URL, which the dashboard's CSP allows in media-src.
import { useEffect, useRef, useState } from "preact/hooks";
import { logWhy } from "../lib/log-why.ts";

/** How often the playlist is asked for while it lists no segment yet. */
const FIRST_SEGMENT_POLL_MS = 1000;

export function LivePlayer({ liveUrl }: { liveUrl: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    let stopped = false;
    let destroy = () => {};
    const listsASegment = async () => {
      const res = await fetch(liveUrl, { credentials: "same-origin", cache: "no-store" });
      return res.ok && (await res.text()).includes("#EXTINF");
    };
    const start = async () => {
      while (!stopped && !(await listsASegment())) await new Promise((resolve) => setTimeout(resolve, FIRST_SEGMENT_POLL_MS));
      if (stopped) return;
      const { default: Hls } = await import("hls.js");
      if (stopped) return;
      if (Hls.isSupported()) {
        // No worker: it would be a blob: script, which the dashboard's CSP does not run.
        const hls = new Hls({ enableWorker: false });
        hls.loadSource(liveUrl);
        hls.attachMedia(video);
        destroy = () => hls.destroy();
      } else {
        video.src = liveUrl; // Safari plays HLS itself
      }
      setPlaying(true);
    };
    start().catch((error: unknown) => logWhy("the live view did not start", error));
    return () => {
      stopped = true;
      destroy();
    };
  }, [liveUrl]);
  return (
    <div class="live-player">
      <video class="player" ref={ref} controls muted autoPlay playsInline aria-label="Watch the render as it runs" data-testid="render-live-player" data-playing={playing ? "true" : "false"} />
      {!playing && <p class="muted">The first seconds appear here as soon as they are rendered.</p>}
    </div>
  );
}
