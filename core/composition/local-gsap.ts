// Where a play page (the Worker's /play, the node's preview) loads a CDN GSAP script from: its own copy of the
// release a render would serve for that URL (core/composition/gsap-versions.ts), under `<gsapBase><version>/<file>`,
// so the browser runs the same GSAP as the render. Shared by the page HTML rewrite and the page runtime's
// sub-composition scripts. Pure.
import { gsapSubstitutionMessage, serveGsapVersion } from "./gsap-versions.ts";
import { matchGsapUrl } from "./match-gsap-url.ts";

export interface LocalGsap {
  /** The local URL: gsapBase + served version + "/" + file. */
  src: string;
  /** Set when the release served is not the one the URL pinned (the render's finding, in its words). */
  substituted: string | null;
}

/** The local copy for a GSAP CDN URL, or null when the URL is not one (matchGsapUrl). */
export function localGsap(url: string, gsapBase: string): LocalGsap | null {
  const gsap = matchGsapUrl(url);
  if (!gsap) return null;
  const served = serveGsapVersion(gsap.version);
  return {
    src: `${gsapBase}${served.version}/${gsap.file}`,
    substituted: served.exact ? null : gsapSubstitutionMessage(gsap.version, url, served.version),
  };
}
