// Shapes of the API responses the dashboard reads. Only the fields it uses; everything else is passed through.

export interface User {
  id: string;
  name: string;
  email?: string | null;
  avatarUrl?: string | null;
  provider?: string;
}

export interface Health {
  ok: boolean;
  version: string;
  baseUrl: string;
  login: { github?: boolean; google?: boolean; dev?: boolean };
  authorized: boolean;
  user: User | null;
  /** The caller is in ADMIN_USER_IDS (render node keys). */
  admin?: boolean;
}

export interface Identity {
  user: User;
  token: string;
  baseUrl: string;
  curl: string;
  docsUrl: string;
  /** Bytes of project files and renders stored, and the quota. */
  storage?: { used: number; limit: number };
}

export interface Stats {
  pageViews: number;
  uniqueVisitors: number;
  returningVisitors: number;
  animationsCreated: number;
  animationsNow: number;
  rendersCompleted: number;
  users: number;
}

export interface PreviewState {
  running: boolean;
  port?: number;
  url?: string;
}

// A render's public shape is the contract in core/protocol/render-state.ts; the page adds "none" for a project
// that never rendered (what its streams say then).
import type { RenderOrNone, RenderProgress } from "../../../core/protocol/render-state.ts";
export type { RenderProgress };
export type RenderState = RenderOrNone;

export interface ProjectSummary {
  name: string;
  displayName: string;
  compositionId: string;
  duration: number;
  createdAt: string;
  preview: PreviewState;
  render: RenderState | null;
  /** List entries only: a one-hour read-only link to the project on the content origin. */
  contentUrl?: string;
}

export interface FileEntry {
  path: string;
  size: number;
  mtime?: string | number;
  type?: "file" | "directory";
}

export interface ProjectDetail {
  project: ProjectSummary;
  meta: unknown;
  files: FileEntry[];
  /** The project on the content origin for an hour: the play page; append a file path for a file. */
  contentUrl: string;
  contentExpiresAt: string;
}

/** POST /api/projects/:slug/share. */
export interface ShareLink {
  url: string;
  expiresAt: string;
}

export interface SnapshotEntry {
  path: string;
  size: number;
  url: string;
}

export interface RenderFile {
  filename: string;
  project: string;
  size: number;
  mtime: string | number;
  url: string;
}

/** Terminal render statuses; anything else (queued, rendering) is in progress. */
export const FINISHED = new Set(["none", "done", "failed", "cancelled"]);
