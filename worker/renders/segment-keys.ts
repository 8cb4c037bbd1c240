// Where a split render's segment files wait in R2 for the join: apart from finished renders (r/), removed when the
// render ends.
export const segmentKey = (userId: string, renderId: string, index: number) => `seg/${userId}/${renderId}/${index}`;
