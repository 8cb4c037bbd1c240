// The live HLS playlist of a running render (EVENT type): the contiguous prefix of its finished pieces, each a
// fragmented MP4 (its init part named by EXT-X-MAP, its media part by EXT-X-BYTERANGE, one object in R2), and
// EXT-X-ENDLIST once every piece the node announced is there, or once the render ended (whatever it had then: a
// failed or cancelled render's stream ends where its pieces do). Each piece's timestamps start at zero (ffmpeg's copy
// remux writes them so), so every piece after the first follows an EXT-X-DISCONTINUITY: the player lays the pieces end
// to end. Pure.

/** One uploaded piece: the output's n-th fixed segment, its length, and where its init part ends and its media part ends. */
export interface LivePiece {
  n: number;
  seconds: number;
  /** Bytes [0, initBytes) are the init part (ftyp, moov). */
  initBytes: number;
  /** Bytes [initBytes, mediaEnd) are the media part (moof, mdat). */
  mediaEnd: number;
  /** How many pieces the render has in all (the node knows it from the plan). */
  count: number;
}

/** The pieces from 0 on with none missing, in order (pieces finish roughly, not strictly, in order). */
export function contiguousPrefix(pieces: LivePiece[]): LivePiece[] {
  const byN = new Map(pieces.map((piece) => [piece.n, piece]));
  const prefix: LivePiece[] = [];
  for (let n = 0; byN.has(n); n++) prefix.push(byN.get(n)!);
  return prefix;
}

/** The playlist text; `pieceUrl(n)` is each piece's URL relative to the playlist's; `ended`: the render ended. */
export function livePlaylist(pieces: LivePiece[], pieceUrl: (n: number) => string, ended = false): string {
  const prefix = contiguousPrefix(pieces);
  const target = Math.max(1, ...prefix.map((piece) => Math.ceil(piece.seconds)));
  const lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-PLAYLIST-TYPE:EVENT", `#EXT-X-TARGETDURATION:${target}`, "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-INDEPENDENT-SEGMENTS"];
  for (const piece of prefix) {
    const url = pieceUrl(piece.n);
    if (piece.n > 0) lines.push("#EXT-X-DISCONTINUITY");
    lines.push(`#EXT-X-MAP:URI="${url}",BYTERANGE="${piece.initBytes}@0"`);
    lines.push(`#EXTINF:${piece.seconds.toFixed(6)},`);
    lines.push(`#EXT-X-BYTERANGE:${piece.mediaEnd - piece.initBytes}@${piece.initBytes}`);
    lines.push(url);
  }
  const count = prefix[0]?.count;
  if (ended || (count !== undefined && prefix.length === count)) lines.push("#EXT-X-ENDLIST");
  return lines.join("\n") + "\n";
}
