// GSAP for play pages on the content origin: /_studio/gsap/<version>/<file> is the release a render serves for the
// page's CDN URL (core/composition/local-gsap.ts rewrote it), read from the Worker's static assets, where the
// dashboard build put each shipped release (core/composition/gsap-assets.ts): three GSAPs in the script itself
// would pass its size budget. /_studio/gsap/<file> (links made before versions) is the default release.
import type { Context } from "hono";
import * as z from "zod";
import { gsapAssetPath } from "../../core/composition/gsap-assets.ts";
import { SHIPPED_GSAP_VERSIONS } from "../../core/composition/gsap-versions.ts";
import { GSAP_VERSION } from "../../core/composition/match-gsap-url.ts";
import type { AppEnv } from "../http/context.ts";
import { route } from "../http/route.ts";

const JS = { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" };

export async function serveGsapFile(c: Context<AppEnv>, version: string, file: string): Promise<Response> {
  if (!SHIPPED_GSAP_VERSIONS.includes(version)) {
    return c.text(`GSAP ${version} is not served here: the releases are ${SHIPPED_GSAP_VERSIONS.join(", ")}`, 404);
  }
  const path = gsapAssetPath(version, file);
  if (!path) return c.text("not served: only the GSAP core (gsap.min.js) is served here", 404);
  // A deployment without its assets cannot play: say so rather than answer an empty script.
  const res = c.env.ASSETS ? await c.env.ASSETS.fetch(new Request(new URL(path, c.req.url))) : null;
  if (!res?.ok) return c.text(`GSAP ${version} is missing from this deployment's assets (${path}): build the dashboard before deploying`, 503);
  return new Response(res.body, { status: 200, headers: JS });
}

const gsapDoc = { tag: "content", access: "public" as const, responses: () => ({ 200: { description: "the script" } }), errors: [404, 503] };

export function gsapFileRoutes(app: { get: (path: string, handler: ReturnType<typeof route>) => unknown }): void {
  app.get(
    "/_studio/gsap/:version/:file",
    route(
      { ...gsapDoc, operationId: "contentGsapRelease", summary: "A shipped GSAP release's file", request: () => ({ params: z.object({ version: z.string(), file: z.string() }) }) },
      (c, input) => serveGsapFile(c, input.param("version"), input.param("file")),
    ),
  );
  app.get(
    "/_studio/gsap/:file",
    route(
      { ...gsapDoc, operationId: "contentGsapDefault", summary: "The default GSAP release's file (links made before versions)", request: () => ({ params: z.object({ file: z.string() }) }) },
      (c, input) => serveGsapFile(c, GSAP_VERSION, input.param("file")),
    ),
  );
}
