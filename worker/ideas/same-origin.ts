// Cross-site request protection for cookie-authenticated writes. A browser always sends Origin on a cross-site
// POST and Sec-Fetch-Site on every request, so a forged form or fetch from another site fails one of these.

export interface OriginHeaders {
  origin: string | undefined;
  secFetchSite: string | undefined;
}

/** True when the request comes from one of our own origins (the request's own, or BASE_URL's). */
export function isSameOriginRequest(headers: OriginHeaders, ownOrigins: string[]): boolean {
  if (headers.origin !== undefined && headers.origin !== "null") return ownOrigins.includes(headers.origin);
  return headers.secFetchSite === "same-origin";
}
