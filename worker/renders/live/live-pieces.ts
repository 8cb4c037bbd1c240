// A running render's live pieces in R2: live/<userId>/<renderId>/<n>, each with its figures as the object's custom
// metadata (live-playlist.ts LivePiece), written by the node holding the render job, read by the live playlist and
// removed a while after the render ended (room/live-sweeps.ts): the final file replaces them.
import type { LivePiece } from "./live-playlist.ts";

export const livePrefix = (userId: string, renderId: string) => `live/${userId}/${renderId}/`;
export const livePieceKey = (userId: string, renderId: string, n: number) => `${livePrefix(userId, renderId)}${n}`;

/** The figures a piece carries besides its bytes, as R2 custom metadata (strings). */
export function pieceMetadata(piece: Omit<LivePiece, "n">): Record<string, string> {
  return { seconds: String(piece.seconds), initBytes: String(piece.initBytes), mediaEnd: String(piece.mediaEnd), count: String(piece.count) };
}

/** Every piece of the render uploaded so far (a render has at most a few thousand: one per second of video). */
export async function listLivePieces(bucket: R2Bucket, userId: string, renderId: string): Promise<LivePiece[]> {
  const prefix = livePrefix(userId, renderId);
  const pieces: LivePiece[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, include: ["customMetadata"] });
    for (const object of page.objects) {
      const meta = object.customMetadata ?? {};
      pieces.push({
        n: Number(object.key.slice(prefix.length)), seconds: Number(meta["seconds"]), initBytes: Number(meta["initBytes"]),
        mediaEnd: Number(meta["mediaEnd"]), count: Number(meta["count"]),
      });
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return pieces;
}

/** Whether the render has any piece stored (one listing of at most one key). */
export async function hasLivePieces(bucket: R2Bucket, userId: string, renderId: string): Promise<boolean> {
  return (await bucket.list({ prefix: livePrefix(userId, renderId), limit: 1 })).objects.length > 0;
}

/** Removes every piece of the render (its end: the final file is what stays). */
export async function deleteLivePieces(bucket: R2Bucket, userId: string, renderId: string): Promise<void> {
  const pieces = await listLivePieces(bucket, userId, renderId);
  for (let at = 0; at < pieces.length; at += 1000) {
    await bucket.delete(pieces.slice(at, at + 1000).map((piece) => livePieceKey(userId, renderId, piece.n)));
  }
}
