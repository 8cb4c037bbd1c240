// The project summary of the API reference: listing entries and `project` in detail responses.
import type { ProjectRow } from "./store.ts";

export interface RenderSummary {
  [key: string]: unknown;
}

export interface PreviewState {
  running: boolean;
  port?: number;
  url?: string;
}

export function projectSummary(row: ProjectRow, extra: { render?: RenderSummary | null; preview?: PreviewState } = {}) {
  return {
    name: row.slug,
    displayName: row.displayName,
    compositionId: row.compositionId,
    duration: row.duration,
    createdAt: new Date(row.createdAt).toISOString(),
    createdBy: row.createdBy,
    preview: extra.preview ?? { running: false },
    render: extra.render ?? null,
  };
}
