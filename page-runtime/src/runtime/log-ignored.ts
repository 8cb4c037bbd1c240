// A failure the page goes on without (a stylesheet of another origin it may not read, storage turned off, an image
// that does not decode): said in the page's console at debug level (DevTools' "Verbose"), never thrown, so the
// page renders as it would without the thing that failed. The node logs only console errors, so these stay out of
// a render's log. Imports nothing: the pure modules that use it are tested outside a page.
export function logIgnored(why: string, error: unknown): void {
  console.debug("studio: " + why, error);
}
