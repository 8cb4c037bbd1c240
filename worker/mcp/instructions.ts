// What an MCP client is told when it connects: the loop, in the order that works.
export const MCP_INSTRUCTIONS = [
  "Studio makes videos from HTML compositions (GSAP timelines, seeked frame by frame).",
  "The loop: create_project (a starter composition you can copy from) -> write_file index.html and assets -> lint " +
    "(fix every error) -> check (browser and layout findings) -> snapshot (look at the frames) -> render " +
    "(quality draft first, wait: true) -> get_render for downloadUrl; fix and repeat.",
  "Errors come back as tool errors carrying the REST body: { error, code, status }; an argument that breaks a " +
    "tool's input schema (a slug or path REST would refuse) is an input validation error naming the argument.",
].join("\n");
