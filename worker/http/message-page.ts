// A small HTML page with a title and one paragraph, for routes a person opens in a browser (/play, content links)
// when they cannot show what was asked. `body` is trusted markup; callers escape anything that came from a request.
import { escapeHtml } from "../../core/composition/escape-html.ts";

export function messagePage(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font:16px system-ui,sans-serif;margin:3rem"><h1>${escapeHtml(title)}</h1><p>${body}</p></body></html>`;
}
