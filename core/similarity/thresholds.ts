// Where the similarity score draws its lines. Tuned on duplicate-corpus.ts (see similarity.test.ts for the
// precision and recall they reach); the API reference quotes these numbers.

/** At or above: the same idea. POST /api/ideas answers 409 unless force is true. */
export const DUPLICATE_THRESHOLD = 0.55;

/** At or above: similar enough to show as "did you mean" in POST /api/ideas/check. */
export const SIMILAR_THRESHOLD = 0.3;
