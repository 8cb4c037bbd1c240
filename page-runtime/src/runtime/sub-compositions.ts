// Sub-compositions, inlined as HyperFrames does: each [data-composition-src] host gets the file's content, its
// styles scoped to the host (scope-css.ts) and its inline scripts run in the mount's scope (make-scope.ts), in
// document order. What fails is a finding naming the file, never a silent gap.
import { matchGsapUrl } from "../../../core/composition/match-gsap-url.ts";
import { localGsap } from "../../../core/composition/local-gsap.ts";
import { report } from "./findings.ts";
import { makeScope, type Mount } from "./make-scope.ts";
import { attrSelector, defineFrozenGlobal, errorText, num, type Hyperframes } from "./page-globals.ts";
import { scopeCss, type RootNames } from "./scope-css.ts";
import { declaredDefaults, exposeAsCss, parseJson, type Variables } from "./variables.ts";

export interface SubCompositionContext {
  /** Pages without internet (play, preview) load GSAP from a local copy: "<base><file>" replaces CDN URLs. */
  gsapBase: string | null;
  rootFile: string;
  hyperframes: Hyperframes;
}

const mounts: Mount[] = [];
const loadedScripts: Record<string, true> = {};
const usedIds: Record<string, true> = {};
let context: SubCompositionContext;
/** The file whose script is being inserted: a syntax error is reported during insertion. */
let inserting: string | null = null;

/** The file a script error belongs to, while a sub-composition script is being inserted. */
export function insertingFile(): string | null {
  return inserting;
}

export function initSubCompositions(ctx: SubCompositionContext): void {
  context = ctx;
  // Called by each wrapped sub-composition script: runs it with the mount's scope and names its file on error.
  defineFrozenGlobal("__studioRunScoped", (index, body) => {
    const mount = mounts[index]!;
    const scope = makeScope(mount, context.hyperframes);
    try {
      body.call(window, scope.document, scope.gsap, scope.window, scope.hyperframes);
    } catch (error) {
      // Caught so the file's other scripts and the other files still run (as in HyperFrames); reported, not lost.
      report("page-error", mount.file, "script error in " + mount.file + ": " + errorText(error), { selector: attrSelector(mount.runtimeId) });
    }
  });
}

function scriptKey(src: string): string {
  const url = new URL(src, document.baseURI).href;
  const gsap = matchGsapUrl(url);
  return gsap ? "gsap:" + gsap.file : url;
}

function localGsapSrc(src: string): string {
  if (!context.gsapBase) return src;
  const local = localGsap(src, context.gsapBase);
  if (local?.substituted) console.warn(local.substituted);
  return local ? local.src : src;
}

function isClassicScript(type: string | null): boolean {
  return !type || /^(text|application)\/(javascript|ecmascript)$/i.test(type.trim());
}

// `mountIndex` (a sub-composition's mount) runs an inline classic script in that mount's scope.
function runScript(old: Element, parent: Node, before: Node | null, mountIndex?: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const src = old.getAttribute("src");
    if (src) {
      const key = scriptKey(src);
      if (loadedScripts[key]) return resolve();
      loadedScripts[key] = true;
    }
    const fresh = document.createElement("script");
    for (let i = 0; i < old.attributes.length; i++) fresh.setAttribute(old.attributes[i]!.name, old.attributes[i]!.value);
    if (src && context.gsapBase) fresh.setAttribute("src", localGsapSrc(src));
    if (src) {
      fresh.onload = () => resolve();
      fresh.onerror = () => reject(new Error("script failed to load: " + src));
    } else if (mountIndex !== undefined && isClassicScript(old.getAttribute("type"))) {
      fresh.textContent =
        "window.__studioRunScoped(" + mountIndex + ", function (document, gsap, window, __hyperframes) {\n" +
        old.textContent + "\n});\n//# sourceURL=" + mounts[mountIndex]!.file.replace(/[\r\n\u2028\u2029]/g, "");
    } else {
      fresh.textContent = old.textContent;
    }
    inserting = mountIndex !== undefined ? mounts[mountIndex]!.file : null;
    try {
      parent.insertBefore(fresh, before || null);
    } finally {
      inserting = null;
    }
    if (!src) resolve();
  });
}

export async function appendInOrder(parent: Node, node: Node, mountIndex?: number, hostSel?: string, names?: RootNames): Promise<void> {
  if (node.nodeName === "SCRIPT") return runScript(node as Element, parent, null, mountIndex);
  const imported = document.importNode(node, true);
  if (hostSel && names && imported.nodeName === "STYLE") imported.textContent = scopeCss(imported.textContent || "", hostSel, names);
  const element = imported as Partial<Element>;
  if (hostSel && names && element.querySelectorAll) {
    element.querySelectorAll("style").forEach((st) => { st.textContent = scopeCss(st.textContent || "", hostSel, names); });
  }
  // Nested scripts wait in place as comments: a script imported from a <template> would otherwise run on
  // insertion, out of order, and then again.
  const nested = element.querySelectorAll ? Array.prototype.slice.call(element.querySelectorAll("script")) as Element[] : [];
  const marks = nested.map((s) => {
    const mark = document.createComment("script");
    s.parentNode!.replaceChild(mark, s);
    return mark;
  });
  parent.appendChild(imported);
  for (let i = 0; i < nested.length; i++) {
    await runScript(nested[i]!, marks[i]!.parentNode!, marks[i]!, mountIndex);
    marks[i]!.remove();
  }
}

// The id a mount runs under: the host's own, else the file's; a second mount of the same id gets "-2", "-3"...
function runtimeIdFor(host: Element, authoredId: string | null): string {
  const base = host.getAttribute("data-composition-id") || authoredId || "composition";
  let id = base;
  for (let n = 2; usedIds[id]; n++) id = base + "-" + n;
  usedIds[id] = true;
  return id;
}

/** Fetches and parses a sub-composition file; throws an Error whose message is the cause. */
async function fetchComposition(url: URL): Promise<Document> {
  let res: Response;
  try {
    res = await fetch(url.href);
  } catch (error) {
    throw new Error("could not be fetched (" + errorText(error) + ")");
  }
  if (!res.ok) throw new Error("could not be loaded: HTTP " + res.status);
  return new DOMParser().parseFromString(await res.text(), "text/html");
}

// A host without data-composition-id (a lint error) is sized as HyperFrames 0.8.170 sizes it (measured, parity
// corpus host-size): with a data-width and data-height (its own or its file's) it gets them as an inline size,
// over any stylesheet, unless its style attribute already mentions a width or a height (text match, as theirs).
function sizeUnnamedHost(host: HTMLElement): void {
  const w = num(host.getAttribute("data-width"), NaN);
  const h = num(host.getAttribute("data-height"), NaN);
  if (!Number.isFinite(w) || !Number.isFinite(h)) return;
  const inline = host.getAttribute("style") || "";
  if (inline.indexOf("width") < 0) host.style.width = w + "px";
  if (inline.indexOf("height") < 0) host.style.height = h + "px";
}

async function inlineOne(host: HTMLElement): Promise<void> {
  const src = host.getAttribute("data-composition-src")!;
  const url = new URL(src, document.baseURI);
  const file = decodeURIComponent(url.pathname).replace(/^\/+/, "");
  const hostFinding = { selector: '[data-composition-src="' + src.replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"]', asset: file };
  let doc: Document;
  try {
    doc = await fetchComposition(url);
  } catch (error) {
    report("composition-load-failed", file, "sub-composition " + file + " did not mount: it " + (error as Error).message, hostFinding);
    return;
  }
  const template = doc.querySelector("template");
  const container: ParentNode = template ? template.content : doc.body;
  if (!container.querySelector("[data-composition-id]")) {
    report("composition-load-failed", file, "sub-composition " + file + " did not mount: it has no element with data-composition-id", hostFinding);
    return;
  }
  const elements = Array.prototype.filter.call(container.childNodes, (n: Node) => n.nodeType === 1 && n.nodeName !== "SCRIPT" && n.nodeName !== "STYLE") as Element[];
  const inner = elements.length === 1 && elements[0]!.hasAttribute("data-composition-id") ? elements[0]! : null;
  const authoredId = (inner || container.querySelector("[data-composition-id]")!).getAttribute("data-composition-id");
  const hostNamed = host.hasAttribute("data-composition-id");
  const runtimeId = runtimeIdFor(host, authoredId);
  host.setAttribute("data-composition-id", runtimeId);
  host.setAttribute("data-studio-file", file);
  const holders = ([doc.documentElement] as Element[]).concat(Array.prototype.slice.call(container.querySelectorAll("[data-composition-variables]")) as Element[]);
  if (inner && inner.hasAttribute("data-composition-variables")) holders.push(inner);
  const variables = Object.assign(
    declaredDefaults(holders.filter((el) => el.hasAttribute("data-composition-variables"))),
    parseJson(host.getAttribute("data-variable-values"), false),
  );
  exposeAsCss(host, variables);
  const rootId = inner ? inner.getAttribute("id") : null;
  const mount: Mount = { host, file, authoredId, rootId, runtimeId, variables };
  const mountIndex = mounts.push(mount) - 1;
  const hostSel = attrSelector(runtimeId);
  let items: Node[] = [];
  if (!template) items = items.concat(Array.prototype.slice.call(doc.head.querySelectorAll("style, link[rel=stylesheet], script")) as Node[]);
  if (inner) {
    // The file's own root is unwrapped into the host, which takes its attributes (the host's own win). A host
    // with its own data-composition-id (as HyperFrames' docs and lint want) keeps its own size: the file's
    // data-width/data-height stay out, so a timed host with no size fills the root as any layer does.
    for (let i = 0; i < inner.attributes.length; i++) {
      const attr = inner.attributes[i]!;
      if (attr.name === "class") host.classList.add(...attr.value.split(/\s+/).filter(Boolean));
      else if (hostNamed && (attr.name === "data-width" || attr.name === "data-height")) continue;
      else if (!host.hasAttribute(attr.name) && attr.name !== "id" && attr.name !== "data-start" && attr.name !== "data-composition-id") host.setAttribute(attr.name, attr.value);
    }
    // In document order, the root's children where the root stood: a script after the root (as HyperFrames'
    // skill writes a <template>) runs once the elements it animates exist.
    Array.prototype.forEach.call(container.childNodes, (n: Node) => {
      if (n === inner) items = items.concat(Array.prototype.slice.call(inner.childNodes) as Node[]);
      else items.push(n);
    });
  } else {
    items = items.concat(Array.prototype.slice.call(container.childNodes) as Node[]);
  }
  if (!hostNamed) sizeUnnamedHost(host);
  for (let k = 0; k < items.length; k++) {
    try {
      await appendInOrder(host, items[k]!, mountIndex, hostSel, mount);
    } catch (error) {
      // A script of the file that did not load (its request is a missing-asset or blocked-request finding too).
      report("request-failed", file, "sub-composition " + file + ": " + errorText(error), { selector: hostSel });
    }
  }
}

/** Each mounted sub-composition's own variables (defaults under its host's values), by the id it runs under. */
export function mountedVariables(): Record<string, Variables> {
  const out: Record<string, Variables> = {};
  mounts.forEach((m) => {
    if (!Object.prototype.hasOwnProperty.call(out, m.runtimeId)) out[m.runtimeId] = m.variables;
  });
  return out;
}

export async function inlineSubCompositions(): Promise<void> {
  for (;;) {
    const hosts = document.querySelectorAll<HTMLElement>("[data-composition-src]:not([data-studio-inlined])");
    if (hosts.length === 0) return;
    for (let i = 0; i < hosts.length; i++) {
      hosts[i]!.setAttribute("data-studio-inlined", "");
      await inlineOne(hosts[i]!);
    }
  }
}

// A file whose composition sits in a <template> (how HyperFrames writes sub-compositions) opened as the root:
// its content is the page.
export async function instantiateRootTemplate(): Promise<void> {
  if (document.querySelector("[data-composition-id]")) return;
  const templates = document.querySelectorAll("template");
  for (let i = 0; i < templates.length; i++) {
    const content = templates[i]!.content;
    if (!content.querySelector("[data-composition-id]")) continue;
    const nodes = Array.prototype.slice.call(content.childNodes) as Node[];
    for (let k = 0; k < nodes.length; k++) await appendInOrder(document.body, nodes[k]!);
    return;
  }
}
