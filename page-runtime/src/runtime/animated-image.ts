// Whether an image file can move by itself once shown (its frames run on the browser's clock, not the timeline),
// read from its bytes: frame reuse must never freeze one. Errs towards "animated": every GIF counts (a GIF that
// holds one frame is rare in a video), an SVG with any animation, script or style keyword counts. Pure.

function ascii(bytes: Uint8Array, at: number, length: number): string {
  let text = "";
  for (let i = at; i < at + length && i < bytes.length; i++) text += String.fromCharCode(bytes[i]!);
  return text;
}

function contains(bytes: Uint8Array, word: string, limit = bytes.length): boolean {
  const first = word.charCodeAt(0);
  outer: for (let i = 0; i + word.length <= Math.min(limit, bytes.length); i++) {
    if (bytes[i] !== first) continue;
    for (let j = 1; j < word.length; j++) if (bytes[i + j] !== word.charCodeAt(j)) continue outer;
    return true;
  }
  return false;
}

/** PNG: an animation control chunk (APNG) before the first image data. */
function pngAnimated(bytes: Uint8Array): boolean {
  let at = 8;
  while (at + 8 <= bytes.length) {
    const length = ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
    const type = ascii(bytes, at + 4, 4);
    if (type === "acTL") return true;
    if (type === "IDAT" || type === "IEND") return false;
    at += 12 + length;
  }
  // Cut short: unknown.
  return true;
}

export function isAnimatedImage(bytes: Uint8Array): boolean {
  const head = ascii(bytes, 0, 16);
  if (head.startsWith("GIF8")) return true;
  if (head.startsWith("\x89PNG")) return pngAnimated(bytes);
  if (head.startsWith("RIFF") && head.slice(8, 12) === "WEBP") return contains(bytes, "ANIM", 4096) || contains(bytes, "ANMF", 4096);
  // ISO media (AVIF, HEIF): an image sequence brand.
  if (head.slice(4, 8) === "ftyp") return contains(bytes, "avis", 64) || contains(bytes, "msf1", 64) || contains(bytes, "hevs", 64);
  if (head.startsWith("\xFF\xD8") || head.startsWith("BM")) return false;
  const text = new TextDecoder().decode(bytes.subarray(0, 1 << 20)).toLowerCase();
  if (/<svg[\s>]/.test(text)) return /<(animate|set|script|style)|@keyframes|animation|transition/.test(text);
  // Neither an image nor markup (a font, a text file): draws nothing that moves.
  return false;
}
