// The project's own event stream (GET /api/projects/:slug/events): a `files` event whenever a file is written or
// deleted, by this page or by an agent. EventSource reconnects by itself; a stream that failed for good is reopened.
import { useEffect, useRef, useState } from "preact/hooks";

export interface FilesEvent {
  written: string[];
  deleted: string[];
}

export function useProjectEvents(slug: string, onFiles: (event: FilesEvent) => void): void {
  const onFilesRef = useRef(onFiles);
  onFilesRef.current = onFiles;
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const source = new EventSource(`/api/projects/${encodeURIComponent(slug)}/events`);
    source.addEventListener("files", (event) => {
      try {
        const data = JSON.parse((event as MessageEvent<string>).data) as Partial<FilesEvent>;
        onFilesRef.current({ written: data.written ?? [], deleted: data.deleted ?? [] });
      } catch {
        // a malformed event changes nothing
      }
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
