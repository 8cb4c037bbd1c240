// The player, an MCP App (@modelcontextprotocol/ext-apps): a ui:// resource the render tools name in their
// definition (_meta.ui.resourceUri), which hosts that show apps render beside a render's result. It plays the
// result's video.player link; its CSP (_meta.ui.csp) lets it load media from the studio's content origin only.
// Only the package's server constants are imported: the helpers would bring nothing but a spread of _meta.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import { playerHtml } from "./player-html.ts";

export const PLAYER_URI = "ui://studio/player.html";

/** A tool's _meta naming the player: the current key, and the flat one older hosts read (as registerAppTool does). */
export const playerToolMeta = { ui: { resourceUri: PLAYER_URI }, [RESOURCE_URI_META_KEY]: PLAYER_URI };

export function registerPlayerResource(server: McpServer, contentOrigin: string): void {
  const meta = { ui: { csp: { resourceDomains: [contentOrigin], connectDomains: [] }, prefersBorder: false } };
  server.registerResource(
    "player",
    PLAYER_URI,
    { title: "Render player", description: "Plays a finished render (an MCP App: give it the render tool's result).", mimeType: RESOURCE_MIME_TYPE, _meta: meta },
    async () => ({ contents: [{ uri: PLAYER_URI, mimeType: RESOURCE_MIME_TYPE, text: playerHtml(contentOrigin), _meta: meta }] }),
  );
}
