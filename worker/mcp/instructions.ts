// What an MCP client is told when it connects: the loop, in the order that works (the compose_video prompt
// teaches the same loop).
export const MCP_LOOP =
  "The loop: create_project (a starter composition you can copy from) -> write_file index.html and assets -> lint " +
    "(fix every error) -> check (browser and layout findings) -> snapshot (look at the frames) -> render " +
    "(quality draft first; dryRun: true quotes its frames, size and seconds, says whether it fits your daily " +
    "render-seconds budget, and starts nothing; a render past a budget is a budget_exceeded error naming it and its " +
    "reset: wait for the reset, do not retry in a loop; a render that ends " +
    "within its wait comes back with links.download, else call get_render until it is done; a client with MCP tasks " +
    "can call render, render_batch or snapshot as a task and follow tasks/get); fix and repeat.";

export const MCP_INSTRUCTIONS = [
  "Studio makes videos from HTML compositions (GSAP timelines, seeked frame by frame).",
  MCP_LOOP,
  "Every tool answers structuredContent with absolute links (download, project, render) and a short text; project " +
    "files are also resources (studio://projects/<slug>/files/<path>), and the compose_video prompt has the rules.",
  "Errors come back as tool errors whose text is the REST body: { error, code, status }; an argument that breaks a " +
    "tool's input schema (a slug or path REST would refuse) is an input validation error naming the argument.",
].join("\n");
