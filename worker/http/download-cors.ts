// CORS on /renders/<filename>: the API reference says CORS is open (*), so a browser tool may fetch a render with
// the token in a header, read it in ranges and see its name and length. The preflight is answered here, before
// authentication (a preflight carries no credentials). Origin "*" never admits cookies, so only a token works.
import { cors } from "hono/cors";

export const downloadCors = cors({
  origin: "*",
  allowMethods: ["GET", "HEAD", "DELETE", "OPTIONS"],
  allowHeaders: ["Authorization", "X-Studio-Token", "Range", "If-Range"],
  exposeHeaders: ["Content-Range", "Content-Length", "Content-Disposition", "ETag", "Accept-Ranges"],
  maxAge: 86_400,
});
