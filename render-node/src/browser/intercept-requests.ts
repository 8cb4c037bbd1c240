// Request policy of a render page: project files pass, GSAP CDN files come from the npm package, HyperFrames'
// shader-transition library is the node's own, the rest is blocked.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Page } from "puppeteer-core";
import { makeFinding, type Finding } from "../../../core/protocol/finding.ts";
import { blockedAttemptFinding, channelOfRequest } from "./blocked-attempt.ts";
import { matchGsapUrl } from "../../../core/composition/match-gsap-url.ts";
import { gsapPackageName, gsapSubstitutionMessage, serveGsapVersion } from "../../../core/composition/gsap-versions.ts";
import { isShaderTransitionsUrl } from "../../../core/composition/match-shader-transitions-url.ts";
import { HYPER_SHADER_PAGE_SCRIPT } from "../../../core/composition/hyper-shader-page-script.ts";
import { logDebug } from "../system/debug-log.ts";

const require = createRequire(import.meta.url);

/** The dist/ folder of a shipped GSAP release (core/composition/gsap-versions.ts); throws when it is not installed. */
export function gsapDist(version: string): string {
  return join(dirname(require.resolve(`${gsapPackageName(version)}/package.json`)), "dist");
}

/**
 * Intercepts every request of `page`; `report` gets one finding per blocked attempt or substituted GSAP version.
 * Requests the page's CSP refused never get here (watch-network-attempts.ts reports those).
 */
export async function interceptRequests(page: Page, origin: string, file: string, report: (finding: Finding) => void): Promise<void> {
  const reported = new Set<string>();
  const once = (finding: Finding) => {
    if (reported.has(finding.message)) return;
    reported.add(finding.message);
    report(finding);
  };
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    if (request.isInterceptResolutionHandled()) return;
    const url = request.url();
    // Answering fails only when the page is gone (the render ended) or the request was answered already: nothing to
    // do then, so it is said at debug level.
    const unanswered = (error: unknown) => logDebug(`request ${url} not answered`, error);
    if (url.startsWith(`${origin}/`) || url.startsWith("data:") || url.startsWith("blob:") || url === "about:blank") {
      void request.continue().catch(unanswered);
      return;
    }
    const gsap = matchGsapUrl(url);
    if (gsap) {
      const served = serveGsapVersion(gsap.version);
      if (!served.exact) {
        once(makeFinding("gsap-version-substituted", file, gsapSubstitutionMessage(gsap.version, url, served.version)));
      }
      Promise.resolve()
        .then(() => readFile(join(gsapDist(served.version), gsap.file)))
        .then((body) =>
          request.respond({ status: 200, contentType: "text/javascript; charset=utf-8", body, headers: { "access-control-allow-origin": "*" } }),
        )
        .catch((error: unknown) => {
          logDebug(`GSAP file ${gsap.file} of ${served.version} not read`, error);
          once(makeFinding("gsap-file-missing", file, `GSAP file ${gsap.file} does not exist in GSAP ${served.version} on this node (${url}); blocked`));
          return request.respond({ status: 404, contentType: "text/plain", body: "not found" });
        })
        .catch(unanswered);
      return;
    }
    // HyperFrames' shader-transition library: answered with the node's own HyperShader (shader-transitions/).
    if (isShaderTransitionsUrl(url)) {
      void request
        .respond({ status: 200, contentType: "text/javascript; charset=utf-8", body: HYPER_SHADER_PAGE_SCRIPT, headers: { "access-control-allow-origin": "*" } })
        .catch(unanswered);
      return;
    }
    const navigation = request.isNavigationRequest() && request.frame() === page.mainFrame();
    once(blockedAttemptFinding({ channel: channelOfRequest(request.resourceType(), navigation), target: url }, file));
    // A refused navigation would put Chromium's error page in place of the composition; "204 No Content" tells
    // the browser to stay where it is, so the render goes on (and a strict render fails on the line above).
    if (navigation) void request.respond({ status: 204, body: "" }).catch(unanswered);
    else void request.abort("blockedbyclient").catch(unanswered);
  });
}
