// The contact sheet: every snapshot as a thumbnail with its time under it, laid out by contactSheetLayout and
// drawn by Chromium (its fonts, no ffmpeg drawtext build needed).
import { contactSheetLayout, SHEET_GAP, SHEET_LABEL_HEIGHT } from "../../../core/browser/contact-sheet-layout.ts";
import { escapeHtml } from "../../../core/composition/escape-html.ts";
import { launchCaptureBrowser } from "../browser/launch-capture-browser.ts";

export interface SheetFrame {
  png: Buffer;
  label: string;
}

export function contactSheetHtml(frames: readonly SheetFrame[], width: number, height: number): string {
  const layout = contactSheetLayout(frames.length, width, height);
  const cells = frames
    .map((frame, i) => {
      const x = SHEET_GAP + (i % layout.columns) * (layout.thumbWidth + SHEET_GAP);
      const y = SHEET_GAP + Math.floor(i / layout.columns) * (layout.thumbHeight + SHEET_LABEL_HEIGHT + SHEET_GAP);
      return (
        `<img src="data:image/png;base64,${frame.png.toString("base64")}" style="position:absolute;left:${x}px;top:${y}px;width:${layout.thumbWidth}px;height:${layout.thumbHeight}px">` +
        `<div style="position:absolute;left:${x}px;top:${y + layout.thumbHeight}px;width:${layout.thumbWidth}px;height:${SHEET_LABEL_HEIGHT}px;line-height:${SHEET_LABEL_HEIGHT}px">${escapeHtml(frame.label)}</div>`
      );
    })
    .join("");
  return `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;width:${layout.width}px;height:${layout.height}px;overflow:hidden;background:#1b1b1b;color:#f2f2f2;font:600 18px/1 sans-serif;text-align:center}</style></head><body>${cells}</body></html>`;
}

/** A PNG of exactly contactSheetLayout(frames.length, width, height).width × height pixels. */
export async function composeContactSheet(chrome: string, frames: readonly SheetFrame[], width: number, height: number, onLine: (line: string) => void): Promise<Buffer> {
  const layout = contactSheetLayout(frames.length, width, height);
  const capture = await launchCaptureBrowser({ chrome, preferBeginFrame: false, width: layout.width, height: layout.height, onLine });
  try {
    await capture.session.send("Emulation.setDeviceMetricsOverride", { width: layout.width, height: layout.height, deviceScaleFactor: 1, mobile: false });
    await capture.page.setContent(contactSheetHtml(frames, width, height), { waitUntil: "load" });
    await capture.page.evaluate(() => Promise.all(Array.from(document.images, (img) => img.decode())));
    const shot = await capture.session.send("Page.captureScreenshot", { format: "png", captureBeyondViewport: false });
    return Buffer.from(shot.data, "base64");
  } finally {
    await capture.close();
  }
}
