// A project file's bytes as MCP content: text for text types, base64 otherwise (read_file and the file resources).
/** Largest file read_file returns inline; larger files are for GET /api/projects/:slug/files/<path>. */
export const READ_FILE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];

export function isTextType(contentType: string): boolean {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  return type.startsWith("text/") || /(json|xml|javascript|svg)/.test(type);
}

/** Bytes as base64 (btoa takes a binary string; built in chunks so large files do not overflow the call stack). */
export function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

