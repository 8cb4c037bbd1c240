// The scoped globals one sub-composition script sees, as HyperFrames gives them: document, gsap, window.__timelines
// and window.__hyperframes resolve to that mount, so two files may both say `const tl`, and `.title` means theirs.
import { aliasRoot, type RootNames } from "./scope-css.ts";
import { attrSelector, page, type Hyperframes, type Timeline, type TimelineRegistry } from "./page-globals.ts";
import type { Variables } from "./variables.ts";
import { logIgnored } from "./log-ignored.ts";

export interface Mount extends RootNames {
  host: HTMLElement;
  /** Project path of the file mounted here. */
  file: string;
  /** The id this mount runs under (the host's own, else the file's; "-2", "-3"… for a second mount). */
  runtimeId: string;
  variables: Variables;
}

export interface Scope {
  document: Document;
  gsap: unknown;
  window: Window;
  hyperframes: Hyperframes;
}

type AnyFunction = (...args: unknown[]) => unknown;
type Target = unknown;

function bindAll(target: object) {
  return (value: unknown) => (typeof value === "function" && value.prototype === undefined ? (value as AnyFunction).bind(target) : value);
}

const TWEENS = ["to", "from", "fromTo", "set"];

export function makeScope(mount: Mount, baseHyperframes: Hyperframes): Scope {
  const host = mount.host;
  const hostSel = attrSelector(mount.runtimeId);
  const normalize = (selector: unknown) => (typeof selector === "string" ? aliasRoot(selector, hostSel, mount) : selector);
  const inside = (node: Node) => node === host || host.contains(node);
  const queryAll = (selector: unknown): Element[] | NodeListOf<Element> => {
    if (typeof selector !== "string") return document.querySelectorAll(selector as string);
    return Array.prototype.filter.call(document.querySelectorAll(normalize(selector) as string), inside) as Element[];
  };
  const queryOne = (selector: unknown): Element | null => queryAll(selector)[0] || null;
  const byId = (id: unknown): Element | null => {
    if (mount.rootId && String(id) === mount.rootId) return host;
    const found = document.getElementById(id as string);
    if (found && inside(found)) return found;
    return host.querySelector('[id="' + String(id).replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"]');
  };
  const scopedDocument = new Proxy(document, {
    get(target, prop) {
      if (prop === "querySelector") return queryOne;
      if (prop === "querySelectorAll") return queryAll;
      if (prop === "getElementById") return byId;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as AnyFunction).bind(target) : value;
    },
  });
  const resolveTargets = (target: Target): unknown => {
    if (typeof target === "string") return queryAll(target);
    if (!Array.isArray(target)) return target;
    return target.reduce((all: unknown[], item: unknown) => all.concat(typeof item === "string" ? (queryAll(item) as unknown[]) : [item]), []);
  };
  const scopeTimeline = (tl: Timeline | null | undefined) => {
    if (!tl || tl["__studioScoped"]) return tl;
    TWEENS.forEach((method) => {
      const original = tl[method];
      if (typeof original !== "function") return;
      tl[method] = function (this: unknown, target: Target, ...rest: unknown[]) {
        return (original as AnyFunction).apply(tl, [resolveTargets(target), ...rest]);
      };
    });
    try {
      Object.defineProperty(tl, "__studioScoped", { value: true });
    } catch (error) {
      // A frozen timeline cannot be marked: it is wrapped again next time, which changes nothing it does.
      logIgnored("a frozen timeline is not marked as scoped", error);
    }
    return tl;
  };
  const scopedGsap = () => {
    const base = page.gsap;
    if (!base) return base;
    return new Proxy(base, {
      get(target, prop) {
        if (prop === "timeline") return (...args: unknown[]) => scopeTimeline(target.timeline(...args));
        if (typeof prop === "string" && TWEENS.indexOf(prop) >= 0) {
          return (first: Target, ...rest: unknown[]) => (target[prop] as AnyFunction).apply(target, [resolveTargets(first), ...rest]);
        }
        const utils = target["utils"] as Record<string, unknown> | undefined;
        if (prop === "utils" && utils) {
          return new Proxy(utils, {
            get(u, key) {
              if (key === "toArray") return (first: Target, ...rest: unknown[]) => (u["toArray"] as AnyFunction).apply(u, [resolveTargets(first), ...rest]);
              if (key === "selector") {
                return (base?: unknown) => {
                  const scopeEl = typeof base === "string" ? queryOne(base) : (base as Element | undefined) || host;
                  return (sel: unknown) =>
                    Array.prototype.filter.call(document.querySelectorAll(normalize(sel) as string), (n: Node) => n === scopeEl || (scopeEl && scopeEl.contains(n)));
                };
              }
              return bindAll(u)(Reflect.get(u, key, u));
            },
          });
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === "function" ? (value as AnyFunction).bind(target) : value;
      },
    });
  };
  // The file registers its timeline under its own id; the registry maps that to this mount's id.
  let registryProxy: TimelineRegistry | null = null;
  let registryTarget: TimelineRegistry | null = null;
  const mapKey = (prop: string | symbol) => (prop === mount.authoredId ? mount.runtimeId : prop);
  const registry = (): TimelineRegistry => {
    page.__timelines = page.__timelines || {};
    if (!mount.authoredId || mount.authoredId === mount.runtimeId) return page.__timelines;
    if (registryTarget !== page.__timelines) {
      registryTarget = page.__timelines;
      registryProxy = new Proxy(registryTarget, {
        get: (target, prop) => Reflect.get(target, mapKey(prop), target),
        set: (target, prop, value) => Reflect.set(target, mapKey(prop), value, target),
        has: (target, prop) => Reflect.has(target, mapKey(prop)),
      });
    }
    return registryProxy!;
  };
  const scopedHyperframes: Hyperframes = Object.assign({}, baseHyperframes, {
    getVariables: () => Object.assign({}, mount.variables),
  });
  const scopedWindow = new Proxy(window, {
    get(target, prop) {
      if (prop === "__timelines") return registry();
      if (prop === "__hyperframes") return scopedHyperframes;
      if (prop === "document") return scopedDocument;
      if (prop === "gsap") return scopedGsap();
      return bindAll(target)(Reflect.get(target, prop, target));
    },
    set(target, prop, value) {
      if (prop === "__timelines") {
        // The boilerplate `window.__timelines = window.__timelines || {}` hands back what the getter gave.
        const pageTarget = target as unknown as { __timelines?: TimelineRegistry };
        if (value !== registryProxy && value !== pageTarget.__timelines) pageTarget.__timelines = (value as TimelineRegistry) || {};
        return true;
      }
      return Reflect.set(target, prop, value, target);
    },
  });
  return { document: scopedDocument, gsap: scopedGsap(), window: scopedWindow, hyperframes: scopedHyperframes };
}
