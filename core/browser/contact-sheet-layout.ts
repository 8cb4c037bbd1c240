// The contact sheet's geometry, from the frame count and the composition's size. Pure: the test checks the
// PNG's dimensions against this.

export const SHEET_THUMB_WIDTH = 480;
export const SHEET_LABEL_HEIGHT = 36;
export const SHEET_GAP = 8;
const MAX_COLUMNS = 4;

export interface ContactSheetLayout {
  columns: number;
  rows: number;
  thumbWidth: number;
  thumbHeight: number;
  width: number;
  height: number;
}

/** Up to four thumbnails a row, each 480 px wide (height by aspect), a time label under each, 8 px gaps. */
export function contactSheetLayout(count: number, width: number, height: number): ContactSheetLayout {
  const columns = Math.max(1, Math.min(MAX_COLUMNS, count));
  const rows = Math.max(1, Math.ceil(count / columns));
  const thumbWidth = SHEET_THUMB_WIDTH;
  const thumbHeight = Math.max(1, Math.round((SHEET_THUMB_WIDTH * height) / Math.max(1, width)));
  return {
    columns,
    rows,
    thumbWidth,
    thumbHeight,
    width: columns * thumbWidth + (columns + 1) * SHEET_GAP,
    height: rows * (thumbHeight + SHEET_LABEL_HEIGHT) + (rows + 1) * SHEET_GAP,
  };
}
