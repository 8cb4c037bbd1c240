// Which GSAP release a render serves for the version a CDN URL asks for. Render nodes ship a few 3.x releases as
// npm aliases (`gsap-<version>` in package.json, installed in the node's image); a URL pinned to one of them gets
// exactly it, any other gets the nearest shipped release, with a finding that says so. Lint warns on the same rule
// (core/lint/rules/check-gsap-script.ts), the node serves by it (render-node/src/browser/intercept-requests.ts). Pure.
import { GSAP_VERSION } from "./match-gsap-url.ts";

/**
 * Each shipped release and the npm alias that holds it (package.json: `"gsap-3.12.5": "npm:gsap@3.12.5"`), named
 * in full so the image check (test/node/image-files.test.ts) sees the node use each package. Oldest first; the
 * newest is GSAP_VERSION, served for an unpinned URL (`gsap/dist/...`, `@latest`).
 */
const GSAP_PACKAGES: Readonly<Record<string, string>> = {
  "3.12.5": "gsap-3.12.5",
  "3.13.0": "gsap-3.13.0",
  "3.14.2": "gsap-3.14.2",
};

export const SHIPPED_GSAP_VERSIONS: readonly string[] = Object.keys(GSAP_PACKAGES);

export interface ServedGsap {
  /** A member of SHIPPED_GSAP_VERSIONS. */
  version: string;
  /** True when it is the very version the URL pinned. */
  exact: boolean;
}

/** "3.12.5" → [3, 12, 5]; "3.12" → [3, 12]; "3.12.5-beta.1" → [3, 12, 5]; anything else → null. */
function parseVersion(text: string): number[] | null {
  const core = text.trim().replace(/^v/i, "").split(/[-+]/)[0] ?? "";
  const parts = core.split(".");
  if (parts.length === 0 || parts.length > 3 || !parts.every((p) => /^\d{1,6}$/.test(p))) return null;
  return parts.map(Number);
}

const rank = ([major = 0, minor = 0, patch = 0]: number[]) => major * 1e12 + minor * 1e6 + patch;

/**
 * The shipped release served for `requested` (a URL's pinned version, null for none): itself when shipped; for a
 * range such as "3" or "3.12" the newest shipped release inside it; otherwise the nearest by version order (ties
 * go to the newer), so 3.12.2 gets 3.12.5 and 3.13.4 gets 3.13.0. Unpinned or unreadable: GSAP_VERSION.
 */
export function serveGsapVersion(requested: string | null): ServedGsap {
  if (requested === null) return { version: GSAP_VERSION, exact: false };
  if (SHIPPED_GSAP_VERSIONS.includes(requested)) return { version: requested, exact: true };
  const wanted = parseVersion(requested);
  if (!wanted) return { version: GSAP_VERSION, exact: false };
  const shipped = SHIPPED_GSAP_VERSIONS.map((version) => ({ version, parts: parseVersion(version)! }));
  if (wanted.length < 3) {
    const inRange = shipped.filter(({ parts }) => wanted.every((n, i) => parts[i] === n));
    if (inRange.length > 0) return { version: inRange[inRange.length - 1]!.version, exact: false };
  }
  let best = shipped[shipped.length - 1]!;
  for (const candidate of shipped) {
    const distance = Math.abs(rank(candidate.parts) - rank(wanted));
    const bestDistance = Math.abs(rank(best.parts) - rank(wanted));
    if (distance < bestDistance || (distance === bestDistance && rank(candidate.parts) > rank(best.parts))) best = candidate;
  }
  return { version: best.version, exact: false };
}

/** The npm package (an alias in package.json) that holds a shipped release's dist/ folder. */
export function gsapPackageName(version: string): string {
  const name = GSAP_PACKAGES[version];
  if (!name) throw new Error(`GSAP ${version} is not a release render nodes ship (${SHIPPED_GSAP_VERSIONS.join(", ")})`);
  return name;
}

/** The words of a substitution, one sentence for the render log, check, lint's neighbours and the player's bar. */
export function gsapSubstitutionMessage(requested: string | null, url: string, served: string): string {
  return `GSAP ${requested ?? "(no pinned version)"} requested (${url}); served GSAP ${served}, the nearest release render nodes ship`;
}
