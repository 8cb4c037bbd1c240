// The player app's page (an MCP App view: player-resource.ts). It speaks the host side's postMessage JSON-RPC as
// the ext-apps specification has it: ui/initialize, then ui/notifications/initialized; the host then sends the
// tool's result (ui/notifications/tool-result), and the page plays its video.player link, a read-only link on the
// studio's content origin that needs no token (finished-video.ts). Written by hand rather than with the ext-apps
// App class, whose bundle (with the SDK it needs) is larger than the whole Worker's headroom. Its own CSP (a meta
// tag, beside the one the host makes from _meta.ui.csp) lets it load media from the content origin and nothing
// else: no fetch, no image, no frame, no other script.

/** The ext-apps protocol version the page asks for. */
export const PLAYER_PROTOCOL_VERSION = "2026-01-26";

const script = (contentOrigin: string) => `
const CONTENT_ORIGIN = ${JSON.stringify(contentOrigin)};
const video = document.querySelector("video");
const status = document.querySelector("p");
const send = (message) => window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
function show(result) {
  const content = (result && result.structuredContent) || {};
  const link = content.video && content.video.player && content.video.player.url;
  let origin = null;
  try { origin = link ? new URL(link).origin : null; } catch (err) { status.textContent = "not a link: " + err.message; return; }
  if (origin !== CONTENT_ORIGIN) {
    status.textContent = content.status ? "The render is " + content.status + "." : "No video to play.";
    return;
  }
  status.textContent = "";
  video.src = link;
  video.hidden = false;
  video.play().catch((err) => { status.textContent = "Press play (" + err.name + ")."; });
}
window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const message = event.data;
  if (!message || message.jsonrpc !== "2.0") return;
  if (message.id === 1 && "result" in message) send({ method: "ui/notifications/initialized" });
  else if (message.method === "ui/notifications/tool-result") show(message.params);
  else if (message.method && message.id !== undefined) send({ id: message.id, result: {} });
});
send({ id: 1, method: "ui/initialize", params: { protocolVersion: ${JSON.stringify(PLAYER_PROTOCOL_VERSION)}, appInfo: { name: "studio-player", version: "1" }, appCapabilities: {} } });
`;

/** The page, for a studio whose content origin is `contentOrigin`. */
export function playerHtml(contentOrigin: string): string {
  const csp = `default-src 'none'; media-src ${contentOrigin}; script-src 'unsafe-inline'; style-src 'unsafe-inline'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>Studio player</title>
<style>
  body { margin: 0; font: 14px system-ui, sans-serif; color: #ddd; background: #111; }
  video { display: block; width: 100%; max-height: 80vh; background: #000; }
  p { margin: 8px; }
</style>
</head>
<body>
<video controls muted playsinline loop hidden></video>
<p>Waiting for the render…</p>
<script>${script(contentOrigin)}</script>
</body>
</html>
`;
}
