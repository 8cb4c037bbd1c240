// A tiny client router over real addresses (/, /project?slug=…, /ideas, /idea?id=…, /research?slug=…, /docs).
// Each address is also a static HTML shell, so reloads and shared links work without server-side fallbacks.
import { useEffect, useState } from "preact/hooks";
import { logWhy } from "./log-why.ts";

export interface Location {
  path: string;
  query: URLSearchParams;
}

type Listener = (location: Location) => void;
const listeners = new Set<Listener>();

function current(): Location {
  const path = window.location.pathname.replace(/\.html$/, "").replace(/\/+$/, "") || "/";
  return { path: path === "/index" ? "/" : path, query: new URLSearchParams(window.location.search) };
}

function notify(): void {
  const location = current();
  for (const listener of listeners) listener(location);
}

/**
 * Tells the public stats which page is viewed. The server counts a view once per visitor, page and half hour, and
 * only once the visitor cookie comes back, so the beacon also runs on load: a first visit's HTML load only sets
 * the cookie, and this beacon returns it.
 */
export function sendViewBeacon(): void {
  const url = `/api/stats/view?page=${encodeURIComponent(current().path)}`;
  try {
    if (!navigator.sendBeacon?.(url)) {
      void fetch(url, { method: "POST", credentials: "same-origin", keepalive: true }).catch((err: unknown) => logWhy("the page view was not counted (stats are best effort)", err));
    }
  } catch (err) {
    logWhy("the page view was not counted (stats are best effort)", err);
  }
}

/** Moves to another dashboard address without reloading; counts the view. */
export function navigate(href: string, options: { replace?: boolean } = {}): void {
  const target = new URL(href, window.location.href);
  if (target.origin !== window.location.origin) {
    window.location.assign(target.href);
    return;
  }
  const sameAddress = target.pathname + target.search === window.location.pathname + window.location.search;
  if (options.replace) window.history.replaceState(null, "", target.pathname + target.search + target.hash);
  else window.history.pushState(null, "", target.pathname + target.search + target.hash);
  if (!sameAddress && !options.replace) sendViewBeacon();
  notify();
  if (!target.hash) window.scrollTo(0, 0);
}

window.addEventListener("popstate", () => {
  sendViewBeacon();
  notify();
});

/** Clicks on same-origin dashboard links become client-side navigations. */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.("a");
    if (!anchor || anchor.target || anchor.hasAttribute("download") || anchor.dataset.native !== undefined) return;
    const url = new URL(anchor.href, window.location.href);
    if (url.origin !== window.location.origin) return;
    if (!isDashboardPath(url.pathname)) return;
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
}

const DASHBOARD_PATHS = new Set(["/", "/project", "/ideas", "/idea", "/research", "/docs"]);

export function isDashboardPath(pathname: string): boolean {
  return DASHBOARD_PATHS.has(pathname.replace(/\.html$/, "").replace(/\/+$/, "") || "/");
}

/** The current address; re-renders on navigation. */
export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    listeners.add(setLocation);
    return () => void listeners.delete(setLocation);
  }, []);
  return location;
}
