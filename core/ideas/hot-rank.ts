// The "hot" ordering of the idea board, Hacker News style: votes decay with age. An idea's own post counts as
// one point so a fresh idea with no votes still outranks an old one with none.

/** Larger gravity makes age weigh more. 1.8 is Hacker News' published value. */
export const HOT_GRAVITY = 1.8;
/** Hours added to the age so a brand-new idea does not divide by (almost) zero. */
export const HOT_AGE_OFFSET_HOURS = 2;

/** hot = (votes + 1) / (ageHours + 2) ^ 1.8 */
export function hotScore(votes: number, ageHours: number): number {
  return (votes + 1) / (Math.max(0, ageHours) + HOT_AGE_OFFSET_HOURS) ** HOT_GRAVITY;
}
