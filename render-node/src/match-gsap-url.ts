// The matcher lives in core (the Worker's play page rewrites the same URLs); re-exported for the node's imports.
export { matchGsapUrl, type GsapRequest } from "../../core/composition/match-gsap-url.ts";
