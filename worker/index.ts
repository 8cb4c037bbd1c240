// Worker entry: the HTTP app and the Durable Object classes wrangler binds.
import { createApp } from "./app.ts";

export { ProjectRoom } from "./rooms/project-room.ts";
export { RenderNodeContainer } from "./containers/render-node-container.ts";
export default createApp();
