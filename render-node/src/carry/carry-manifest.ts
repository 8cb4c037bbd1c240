// What a finished render leaves for the next one to carry from (incremental re-render): the key its frames were
// rendered under and each frame's fingerprint (page-runtime/src/runtime/frame-fingerprint.ts), stored as JSON next
// to the render's output. Parsed with a schema when read: it comes back from storage, written by another node.
import * as z from "zod";

/** Bumped whenever what a fingerprint or key covers changes: an older manifest then carries nothing. */
export const CARRY_MANIFEST_VERSION = 1;

const FINGERPRINT_LENGTH = 200;

export const CarryManifestSchema = z.object({
  version: z.literal(CARRY_MANIFEST_VERSION),
  /** carry-key.ts: everything that is the same for every frame (options, files, scripts, renderer). */
  key: z.string().min(1).max(128),
  /** The composition frame of the output's first frame (a range render's from; 0 otherwise). */
  firstFrame: z.number().int().min(0),
  /** One per output frame, in order: 16 hex digits, or "!" and why that frame cannot be carried. */
  fingerprints: z.array(z.string().max(FINGERPRINT_LENGTH)).max(1_000_000),
});

export type CarryManifest = z.infer<typeof CarryManifestSchema>;

/** The manifest's bytes as stored. */
export function writeCarryManifest(manifest: CarryManifest): string {
  return JSON.stringify(manifest);
}

/** A stored manifest, or null (with why) when it does not parse: then nothing is carried from it. */
export function readCarryManifest(text: string): { manifest: CarryManifest } | { manifest: null; why: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { manifest: null, why: `the manifest is not JSON (${(error as Error).message})` };
  }
  const parsed = CarryManifestSchema.safeParse(raw);
  if (!parsed.success) return { manifest: null, why: `the manifest does not parse: ${parsed.error.issues[0]?.message ?? "invalid"}` };
  return { manifest: parsed.data };
}

/** A page's fingerprint answer as the node keeps it: a string of bounded length, else a refusal. */
export function readFingerprint(raw: unknown): string {
  return typeof raw === "string" && raw.length > 0 && raw.length <= FINGERPRINT_LENGTH ? raw : "!the page's fingerprint did not parse";
}

/** Whether a fingerprint names a picture (a refusal, "!...", never matches, not even itself). */
export function isProof(fingerprint: string): boolean {
  return !fingerprint.startsWith("!");
}
