// Content types by extension, for serving project files and renders with the type a browser expects: hono's
// table, plus the types a video project needs that it lacks.
import { getMimeType, mimes } from "hono/utils/mime";

const STUDIO_TYPES: Record<string, string> = {
  ...mimes,
  // Hono lacks these media types, and compositions use them (audio assets, renders, agents' notes).
  mov: "video/quicktime",
  wav: "audio/wav",
  ogg: "audio/ogg",
  m4a: "audio/mp4",
  flac: "audio/flac",
  md: "text/markdown; charset=utf-8",
  // Hono says video/mp2t; in a project a .ts file is TypeScript source, not a transport stream.
  ts: "text/plain; charset=utf-8",
};

export function contentTypeFor(path: string): string {
  return getMimeType(path, STUDIO_TYPES) ?? "application/octet-stream";
}
