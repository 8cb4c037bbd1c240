// A finished segment as a live piece (worker/renders/live/): remuxed by copy, nothing encoded again, into a
// fragmented MP4 (ftyp+moov, then moof+mdat), which HLS plays for H.264 and VP9 alike. The playlist names its two
// parts by byte range, so the node says where each ends. Pure.

/** ffmpeg's arguments: the segment's video copied into a fragmented MP4, deterministic like the segment itself. */
export function buildLivePieceArgs(segment: string, output: string): string[] {
  return [
    "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", segment,
    "-map", "0:v", "-c", "copy", "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-fflags", "+bitexact",
    "-f", "mp4", output,
  ];
}

/** Where a fragmented MP4's parts end: the init part before the first moof, the media part after the last mdat. */
export interface PieceParts {
  initBytes: number;
  mediaEnd: number;
}

/** Reads the top-level boxes of a fragmented MP4; null when it is not one (no moof, or a box that runs past the end). */
export function pieceParts(bytes: Uint8Array): PieceParts | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let initBytes: number | null = null;
  let mediaEnd: number | null = null;
  for (let at = 0; at + 8 <= bytes.length;) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    // A 64-bit size follows the type when size is 1.
    if (size === 1 && at + 16 <= bytes.length) size = Number(view.getBigUint64(at + 8));
    if (size < 8 || at + size > bytes.length) return null;
    if (type === "moof" && initBytes === null) initBytes = at;
    if (type === "mdat" && initBytes !== null) mediaEnd = at + size;
    at += size;
  }
  return initBytes !== null && mediaEnd !== null ? { initBytes, mediaEnd } : null;
}
