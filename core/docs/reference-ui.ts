// Where the interactive API reference's UI (Swagger UI, from the npm package swagger-ui-dist) is served: the
// dashboard build copies these files into its assets (dashboard/vite.config.ts) and GET /api/reference loads them
// from there (worker/docs/reference-page.ts), so the reference works offline and runs no script from a CDN.
export const REFERENCE_UI_PATH = "/vendor/swagger-ui";
/** The bundle and stylesheet the page loads, and the licence texts that go with them (Apache-2.0; the bundle's
 * own comment points at its LICENSE.txt for the libraries inside it). */
export const REFERENCE_UI_FILES = ["swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-bundle.js.LICENSE.txt", "LICENSE", "NOTICE"] as const;
