// Studio page runtime: loaded first in a composition's page (render, snapshot or browser playback). It inlines
// sub-compositions, seeks every registered timeline from one clock, shows clips only inside their time window,
// and in render mode swaps each <video> for an <img> showing frames that ffmpeg extracted.
// Plain browser JavaScript with no build step, so any page can load it with <script src>.
(function studioRuntime() {
  "use strict";
  if (window.__studio) return;
  var script = document.currentScript;
  var renderMode = !!(script && script.dataset && script.dataset.mode === "render");
  // Pages without internet (play, preview) load GSAP from a local copy: "<base><file>" replaces CDN URLs.
  var gsapBase = (script && script.dataset && script.dataset.gsapBase) || null;
  var playing = false;
  window.__timelines = window.__timelines || {};

  var swapped = []; // { img, original }
  var config = { fps: [30, 1], videoFrameUrl: null, videoFrameCounts: [] };
  var readyPromise = null;
  var state = { root: null, hosts: {}, clips: [], videos: [], media: [] };

  function num(value, fallback) {
    if (value === null || value === undefined || value === "") return fallback;
    var n = Number(value);
    return Number.isFinite(n) ? n : fallback;
  }

  // A clip outside its window is hidden, and so is everything inside it, even a child that says visibility:visible;
  // whether it also leaves the layout is setClipShown's concern.
  var HIDDEN_CLIP_RULE = "[data-studio-hidden],[data-studio-hidden] *{visibility:hidden!important}";
  // HyperFrames renders text with geometric precision (glyph positions not snapped to whole pixels); first in
  // <head>, so a composition's own text-rendering still wins.
  (function textRendering() {
    var rule = document.createElement("style");
    rule.setAttribute("data-studio-text-rendering", "");
    rule.textContent = "html,body,*{text-rendering:geometricPrecision}";
    var parent = document.head || document.documentElement;
    parent.insertBefore(rule, parent.firstChild);
  })();

  // ---- <video> swap (render mode): done as the parser inserts them, before composition scripts look them up.
  var SKIP_ATTRS = { src: 1, autoplay: 1, loop: 1, controls: 1, preload: 1, poster: 1, playsinline: 1 };
  function swapVideo(video) {
    if (video.__studioSwapped) return;
    video.__studioSwapped = true;
    var img = document.createElement("img");
    for (var i = 0; i < video.attributes.length; i++) {
      var attr = video.attributes[i];
      if (!SKIP_ATTRS[attr.name]) img.setAttribute(attr.name, attr.value);
    }
    img.setAttribute("data-studio-video", "");
    img.alt = "";
    swapped.push({ img: img, original: video });
    if (video.parentNode) video.parentNode.replaceChild(img, video);
  }
  function visit(node) {
    if (node.nodeType !== 1) return;
    if (node.nodeName === "VIDEO") swapVideo(node);
    else if (node.querySelectorAll) {
      var found = node.querySelectorAll("video");
      for (var i = 0; i < found.length; i++) swapVideo(found[i]);
    }
  }
  if (renderMode) {
    var style = document.createElement("style");
    style.textContent = ":where(img[data-studio-video]){object-fit:contain}" + HIDDEN_CLIP_RULE;
    document.documentElement.appendChild(style);
    new MutationObserver(function (records) {
      for (var r = 0; r < records.length; r++) {
        var added = records[r].addedNodes;
        for (var a = 0; a < added.length; a++) visit(added[a]);
      }
    }).observe(document.documentElement, { childList: true, subtree: true });
  } else {
    var playStyle = document.createElement("style");
    playStyle.textContent = HIDDEN_CLIP_RULE;
    document.documentElement.appendChild(playStyle);
  }

  // ---- per-file scope, as HyperFrames does it: a sub-composition's styles are rewritten to apply inside its host,
  // and each of its inline scripts runs in its own function scope where document, gsap, window.__timelines and
  // window.__hyperframes resolve to that mount (so two files may both say `const tl`, and `.title` means theirs).
  var problems = []; // what the render log reports as findings: script errors, mounts that failed
  var mounts = []; // { host, file, authoredId, rootId, runtimeId, variables }
  function problem(text) { if (problems.indexOf(text) < 0) problems.push(text); }
  function errorText(error) {
    if (error && typeof error === "object" && "message" in error) return (error.name || "Error") + ": " + error.message;
    return String(error);
  }
  var inserting = null; // the file whose script is being inserted: a syntax error is reported during insertion
  var rootFile = decodeURIComponent(location.pathname).replace(/^\/+/, "") || "index.html";
  // Errors outside a scoped sub-composition script (the root file's own scripts, or later callbacks).
  // A sub-composition's scripts carry its path as their sourceURL, so a later callback's error (or a syntax error)
  // still names that file.
  window.addEventListener("error", function (event) {
    var file = inserting || (event.filename && !/^[a-z][a-z0-9+.-]*:/i.test(event.filename) ? event.filename : rootFile);
    // A script that does not parse is reported as thrown by the insertBefore that added it: say only the cause.
    problem("script error in " + file + ": " + errorText(event.error || event.message).replace("Failed to execute 'insertBefore' on 'Node': ", ""));
  });
  function attrSelector(id) {
    return '[data-composition-id="' + String(id).replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"]';
  }
  // Splits "a, b:is(c, d)" at top-level commas only.
  function splitSelectors(text) {
    var parts = [];
    var depth = 0, quote = null, start = 0;
    for (var i = 0; i < text.length; i++) {
      var ch = text[i];
      if (quote) { if (ch === "\\") i++; else if (ch === quote) quote = null; continue; }
      if (ch === '"' || ch === "'") quote = ch;
      else if (ch === "(" || ch === "[") depth++;
      else if (ch === ")" || ch === "]") depth--;
      else if (ch === "," && depth === 0) { parts.push(text.slice(start, i)); start = i + 1; }
    }
    parts.push(text.slice(start));
    return parts;
  }
  function escapeRegExp(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  // How a file names its own root in selectors: [data-composition-id="<its id>"], or #<the root's id>. Unwrapped
  // into the host, that root is the host.
  function rootPatterns(names) {
    var out = [];
    if (names.authoredId) {
      var id = escapeRegExp(names.authoredId);
      out.push(new RegExp("\\[\\s*data-composition-id\\s*=\\s*(?:\"" + id + "\"|'" + id + "'|" + id + ")\\s*\\]", "g"));
    }
    if (names.rootId) out.push(new RegExp("#" + escapeRegExp(names.rootId) + "(?![\\w-])", "g"));
    return out;
  }
  function aliasRoot(selector, hostSel, names) {
    return rootPatterns(names).reduce(function (text, pattern) { return text.replace(pattern, hostSel); }, selector);
  }
  /** One selector of a sub-composition's stylesheet, made to apply inside its host only. */
  function scopeSelector(selector, hostSel, names) {
    var text = selector.trim();
    if (!text || text === "*") return selector;
    if (/^(html|body|:root)$/i.test(text)) return hostSel;
    var namesRoot = rootPatterns(names).some(function (pattern) { return pattern.test(text); });
    return namesRoot ? aliasRoot(text, hostSel, names) : hostSel + " " + text;
  }
  function scopeRules(rules, hostSel, names) {
    for (var i = 0; i < rules.length; i++) {
      var rule = rules[i];
      if (rule.type === 1 /* style rule */) {
        rule.selectorText = splitSelectors(rule.selectorText).map(function (s) { return scopeSelector(s, hostSel, names); }).join(", ");
      } else if (rule.cssRules && !(window.CSSKeyframesRule && rule instanceof CSSKeyframesRule)) {
        scopeRules(rule.cssRules, hostSel, names); // @media, @supports, @layer, @container
      }
    }
  }
  /** A sub-composition's stylesheet text with every selector scoped to its host (the browser parses it). */
  function scopeCss(css, hostSel, names) {
    var sheet;
    try { sheet = new CSSStyleSheet(); sheet.replaceSync(css); } catch (e) { return css; }
    // replaceSync drops @import: keep those lines as written, first.
    var imports = css.match(/@import[^;]+;/g) || [];
    scopeRules(sheet.cssRules, hostSel, names);
    return imports.concat(Array.prototype.map.call(sheet.cssRules, function (r) { return r.cssText; })).join("\n");
  }

  // ---- variables: declared defaults (data-composition-variables, a JSON array of {id, default}) under the
  // mounting host's data-variable-values (a JSON object).
  function parseJson(text, wantArray) {
    if (!text) return wantArray ? [] : {};
    try {
      var value = JSON.parse(text);
      if (wantArray) return Array.isArray(value) ? value : [];
      return value && typeof value === "object" && !Array.isArray(value) ? value : {};
    } catch (e) { return wantArray ? [] : {}; }
  }
  function declaredDefaults(elements) {
    var out = {};
    elements.forEach(function (el) {
      parseJson(el.getAttribute("data-composition-variables"), true).forEach(function (d) {
        if (d && typeof d.id === "string" && "default" in d) out[d.id] = d.default;
      });
    });
    return out;
  }
  function cssVarName(id) {
    var name = String(id).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
    return "--" + (name || "node");
  }
  // Like HyperFrames, each string or number value is also a CSS custom property on the host (--title).
  function exposeAsCss(host, values) {
    for (var key in values) {
      var v = values[key];
      if ((typeof v === "string" && v !== "") || typeof v === "number") {
        if (!host.style.getPropertyValue(cssVarName(key))) host.style.setProperty(cssVarName(key), String(v));
      }
    }
  }
  var baseHyperframes = window.__hyperframes || {};
  if (typeof baseHyperframes.getVariables !== "function") {
    baseHyperframes.getVariables = function () {
      var holders = Array.prototype.slice.call(document.querySelectorAll("[data-composition-variables]"));
      if (document.documentElement.hasAttribute("data-composition-variables") && holders.indexOf(document.documentElement) < 0) holders.unshift(document.documentElement);
      return declaredDefaults(holders);
    };
  }
  window.__hyperframes = baseHyperframes;

  // ---- the scoped globals one sub-composition script sees
  function bindAll(target) {
    return function (value) { return typeof value === "function" && value.prototype === undefined ? value.bind(target) : value; };
  }
  function makeScope(mount) {
    var host = mount.host;
    var hostSel = attrSelector(mount.runtimeId);
    var normalize = function (selector) {
      return typeof selector === "string" ? aliasRoot(selector, hostSel, mount) : selector;
    };
    var inside = function (node) { return node === host || host.contains(node); };
    var queryAll = function (selector) {
      if (typeof selector !== "string") return document.querySelectorAll(selector);
      return Array.prototype.filter.call(document.querySelectorAll(normalize(selector)), inside);
    };
    var queryOne = function (selector) { return queryAll(selector)[0] || null; };
    var byId = function (id) {
      if (mount.rootId && String(id) === mount.rootId) return host;
      var found = document.getElementById(id);
      if (found && inside(found)) return found;
      return host.querySelector('[id="' + String(id).replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"]');
    };
    var scopedDocument = new Proxy(document, {
      get: function (target, prop) {
        if (prop === "querySelector") return queryOne;
        if (prop === "querySelectorAll") return queryAll;
        if (prop === "getElementById") return byId;
        var value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    var resolveTargets = function (target) {
      if (typeof target === "string") return queryAll(target);
      if (!Array.isArray(target)) return target;
      return target.reduce(function (all, item) {
        return all.concat(typeof item === "string" ? queryAll(item) : [item]);
      }, []);
    };
    var TWEENS = ["to", "from", "fromTo", "set"];
    var scopeTimeline = function (tl) {
      if (!tl || tl.__studioScoped) return tl;
      TWEENS.forEach(function (method) {
        var original = tl[method];
        if (typeof original !== "function") return;
        tl[method] = function (target) {
          var args = Array.prototype.slice.call(arguments);
          args[0] = resolveTargets(target);
          return original.apply(tl, args);
        };
      });
      try { Object.defineProperty(tl, "__studioScoped", { value: true }); } catch (e) { /* frozen: best effort */ }
      return tl;
    };
    var scopedGsap = function () {
      var base = window.gsap;
      if (!base) return base;
      return new Proxy(base, {
        get: function (target, prop) {
          if (prop === "timeline") return function () { return scopeTimeline(target.timeline.apply(target, arguments)); };
          if (TWEENS.indexOf(prop) >= 0) {
            return function (first) {
              var args = Array.prototype.slice.call(arguments);
              args[0] = resolveTargets(first);
              return target[prop].apply(target, args);
            };
          }
          if (prop === "utils" && target.utils) {
            return new Proxy(target.utils, {
              get: function (utils, key) {
                if (key === "toArray") return function (first) { var a = Array.prototype.slice.call(arguments); a[0] = resolveTargets(first); return utils.toArray.apply(utils, a); };
                if (key === "selector") {
                  return function (base) {
                    var scopeEl = typeof base === "string" ? queryOne(base) : base || host;
                    return function (sel) { return Array.prototype.filter.call(document.querySelectorAll(normalize(sel)), function (n) { return n === scopeEl || (scopeEl && scopeEl.contains(n)); }); };
                  };
                }
                return bindAll(utils)(Reflect.get(utils, key, utils));
              },
            });
          }
          var value = Reflect.get(target, prop, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    };
    // The file registers its timeline under its own id; the registry maps that to this mount's id.
    var registryProxy = null, registryTarget = null;
    var registry = function () {
      window.__timelines = window.__timelines || {};
      if (!mount.authoredId || mount.authoredId === mount.runtimeId) return window.__timelines;
      if (registryTarget !== window.__timelines) {
        registryTarget = window.__timelines;
        registryProxy = new Proxy(registryTarget, {
          get: function (target, prop) { return Reflect.get(target, prop === mount.authoredId ? mount.runtimeId : prop, target); },
          set: function (target, prop, value) { return Reflect.set(target, prop === mount.authoredId ? mount.runtimeId : prop, value, target); },
          has: function (target, prop) { return Reflect.has(target, prop === mount.authoredId ? mount.runtimeId : prop); },
        });
      }
      return registryProxy;
    };
    var scopedHyperframes = Object.assign({}, baseHyperframes, {
      getVariables: function () { return Object.assign({}, mount.variables); },
    });
    var scopedWindow = new Proxy(window, {
      get: function (target, prop) {
        if (prop === "__timelines") return registry();
        if (prop === "__hyperframes") return scopedHyperframes;
        if (prop === "document") return scopedDocument;
        if (prop === "gsap") return scopedGsap();
        return bindAll(target)(Reflect.get(target, prop, target));
      },
      set: function (target, prop, value) {
        if (prop === "__timelines") {
          // The boilerplate `window.__timelines = window.__timelines || {}` hands back what the getter gave.
          if (value !== registryProxy && value !== target.__timelines) target.__timelines = value || {};
          return true;
        }
        return Reflect.set(target, prop, value, target);
      },
    });
    return { document: scopedDocument, gsap: scopedGsap(), window: scopedWindow, hyperframes: scopedHyperframes };
  }
  // Called by each wrapped sub-composition script: runs it with the mount's scope and names its file on error.
  window.__studioRunScoped = function (index, body) {
    var mount = mounts[index];
    var scope = makeScope(mount);
    try {
      body.call(window, scope.document, scope.gsap, scope.window, scope.hyperframes);
    } catch (error) {
      // Caught so the file's other scripts and the other files still run (as in HyperFrames); reported, not lost.
      problem("script error in " + mount.file + ": " + errorText(error));
    }
  };

  // ---- sub-compositions
  var loadedScripts = {};
  function scriptKey(src) {
    var url = new URL(src, document.baseURI).href;
    var gsap = /\/gsap@[^/]+\/dist\/(.+)$/.exec(url);
    return gsap ? "gsap:" + gsap[1] : url;
  }
  function localGsap(src) {
    if (!gsapBase || !src) return src;
    var match = /\/gsap@[^/]+\/dist\/([A-Za-z0-9_.-]+\.js)$/.exec(src) || /\/ajax\/libs\/gsap\/[^/]+\/([A-Za-z0-9_.-]+\.js)$/.exec(src);
    return match ? gsapBase + match[1] : src;
  }
  function isClassicScript(type) {
    return !type || /^(text|application)\/(javascript|ecmascript)$/i.test(type.trim());
  }
  // `mountIndex` (a sub-composition's mount) runs an inline classic script in that mount's scope.
  function runScript(old, parent, before, mountIndex) {
    return new Promise(function (resolve, reject) {
      var src = old.getAttribute("src");
      if (src) {
        var key = scriptKey(src);
        if (loadedScripts[key]) return resolve();
        loadedScripts[key] = true;
      }
      var fresh = document.createElement("script");
      for (var i = 0; i < old.attributes.length; i++) fresh.setAttribute(old.attributes[i].name, old.attributes[i].value);
      if (src && gsapBase) fresh.setAttribute("src", localGsap(src));
      if (src) {
        fresh.onload = function () { resolve(); };
        fresh.onerror = function () { reject(new Error("script failed to load: " + src)); };
      } else if (mountIndex !== undefined && isClassicScript(old.getAttribute("type"))) {
        fresh.textContent = "window.__studioRunScoped(" + mountIndex + ", function (document, gsap, window, __hyperframes) {\n" +
          old.textContent + "\n});\n//# sourceURL=" + mounts[mountIndex].file.replace(/[\r\n\u2028\u2029]/g, "");
      } else {
        fresh.textContent = old.textContent;
      }
      inserting = mountIndex !== undefined ? mounts[mountIndex].file : null;
      try {
        parent.insertBefore(fresh, before || null);
      } finally {
        inserting = null;
      }
      if (!src) resolve();
    });
  }
  async function appendInOrder(parent, node, mountIndex, hostSel, names) {
    if (node.nodeName === "SCRIPT") return runScript(node, parent, null, mountIndex);
    var imported = document.importNode(node, true);
    if (hostSel && imported.nodeName === "STYLE") imported.textContent = scopeCss(imported.textContent, hostSel, names);
    if (hostSel && imported.querySelectorAll) {
      Array.prototype.forEach.call(imported.querySelectorAll("style"), function (st) { st.textContent = scopeCss(st.textContent, hostSel, names); });
    }
    // Nested scripts wait in place as comments: a script imported from a <template> would otherwise run on
    // insertion, out of order, and then again.
    var nested = imported.querySelectorAll ? Array.prototype.slice.call(imported.querySelectorAll("script")) : [];
    var marks = nested.map(function (s) {
      var mark = document.createComment("script");
      s.parentNode.replaceChild(mark, s);
      return mark;
    });
    parent.appendChild(imported);
    for (var i = 0; i < nested.length; i++) {
      await runScript(nested[i], marks[i].parentNode, marks[i], mountIndex);
      marks[i].remove();
    }
  }
  var usedIds = {};
  // The id a mount runs under: the host's own, else the file's; a second mount of the same id gets "-2", "-3"...
  function runtimeIdFor(host, authoredId) {
    var base = host.getAttribute("data-composition-id") || authoredId || "composition";
    var id = base;
    for (var n = 2; usedIds[id]; n++) id = base + "-" + n;
    usedIds[id] = true;
    return id;
  }
  /** Fetches and parses a sub-composition file; throws an Error whose message is the cause. */
  async function fetchComposition(url) {
    var res;
    try {
      res = await fetch(url.href);
    } catch (error) {
      throw new Error("could not be fetched (" + errorText(error) + ")");
    }
    if (!res.ok) throw new Error("could not be loaded: HTTP " + res.status);
    return new DOMParser().parseFromString(await res.text(), "text/html");
  }
  async function inlineOne(host) {
    var src = host.getAttribute("data-composition-src");
    var url = new URL(src, document.baseURI);
    var file = decodeURIComponent(url.pathname).replace(/^\/+/, "");
    var doc;
    try {
      doc = await fetchComposition(url);
    } catch (error) {
      problem("sub-composition " + file + " did not mount: it " + error.message);
      return;
    }
    var template = doc.querySelector("template");
    var container = template ? template.content : doc.body;
    if (!container.querySelector("[data-composition-id]")) {
      problem("sub-composition " + file + " did not mount: it has no element with data-composition-id");
      return;
    }
    var elements = Array.prototype.filter.call(container.childNodes, function (n) { return n.nodeType === 1 && n.nodeName !== "SCRIPT" && n.nodeName !== "STYLE"; });
    var inner = elements.length === 1 && elements[0].hasAttribute("data-composition-id") ? elements[0] : null;
    var authoredId = (inner || container.querySelector("[data-composition-id]")).getAttribute("data-composition-id");
    var hostNamed = host.hasAttribute("data-composition-id");
    var runtimeId = runtimeIdFor(host, authoredId);
    host.setAttribute("data-composition-id", runtimeId);
    host.setAttribute("data-studio-file", file);
    var holders = [doc.documentElement].concat(Array.prototype.slice.call(container.querySelectorAll("[data-composition-variables]")));
    if (inner && inner.hasAttribute("data-composition-variables")) holders.push(inner);
    var variables = Object.assign(declaredDefaults(holders.filter(function (el) { return el.hasAttribute("data-composition-variables"); })), parseJson(host.getAttribute("data-variable-values"), false));
    exposeAsCss(host, variables);
    var rootId = inner ? inner.getAttribute("id") : null;
    var mount = { host: host, file: file, authoredId: authoredId, rootId: rootId, runtimeId: runtimeId, variables: variables };
    var mountIndex = mounts.push(mount) - 1;
    var hostSel = attrSelector(runtimeId);
    var items = [];
    if (!template) items = items.concat(Array.prototype.slice.call(doc.head.querySelectorAll("style, link[rel=stylesheet], script")));
    if (inner) {
      // The file's own root is unwrapped into the host, which takes its attributes (the host's own win). A host
      // with its own data-composition-id (as HyperFrames' docs and lint want) keeps its own size: the file's
      // data-width/data-height stay out, so a timed host with no size fills the root as any layer does.
      for (var i = 0; i < inner.attributes.length; i++) {
        var attr = inner.attributes[i];
        if (attr.name === "class") host.classList.add.apply(host.classList, attr.value.split(/\s+/).filter(Boolean));
        else if (hostNamed && (attr.name === "data-width" || attr.name === "data-height")) continue;
        else if (!host.hasAttribute(attr.name) && attr.name !== "id" && attr.name !== "data-start" && attr.name !== "data-composition-id") host.setAttribute(attr.name, attr.value);
      }
      Array.prototype.forEach.call(container.childNodes, function (n) { if (n !== inner) items.push(n); });
      items = items.concat(Array.prototype.slice.call(inner.childNodes));
    } else {
      items = items.concat(Array.prototype.slice.call(container.childNodes));
    }
    if (!hostNamed) sizeUnnamedHost(host);
    for (var k = 0; k < items.length; k++) {
      try {
        await appendInOrder(host, items[k], mountIndex, hostSel, mount);
      } catch (error) {
        problem("sub-composition " + file + ": " + errorText(error));
      }
    }
  }
  // A host without data-composition-id (a lint error) is sized as HyperFrames 0.8.170 sizes it (measured, parity
  // corpus host-size): with a data-width and data-height (its own or its file's) it gets them as an inline size,
  // over any stylesheet, unless its style attribute already mentions a width or a height (text match, as theirs).
  function sizeUnnamedHost(host) {
    var w = num(host.getAttribute("data-width"), NaN), h = num(host.getAttribute("data-height"), NaN);
    if (!Number.isFinite(w) || !Number.isFinite(h)) return;
    var inline = host.getAttribute("style") || "";
    if (inline.indexOf("width") < 0) host.style.width = w + "px";
    if (inline.indexOf("height") < 0) host.style.height = h + "px";
  }
  async function inlineSubCompositions() {
    for (;;) {
      var hosts = document.querySelectorAll("[data-composition-src]:not([data-studio-inlined])");
      if (hosts.length === 0) return;
      for (var i = 0; i < hosts.length; i++) {
        hosts[i].setAttribute("data-studio-inlined", "");
        await inlineOne(hosts[i]);
      }
    }
  }
  // A file whose composition sits in a <template> (how HyperFrames writes sub-compositions) opened as the root:
  // its content is the page.
  async function instantiateRootTemplate() {
    if (document.querySelector("[data-composition-id]")) return;
    var templates = document.querySelectorAll("template");
    for (var i = 0; i < templates.length; i++) {
      var content = templates[i].content;
      if (!content.querySelector("[data-composition-id]")) continue;
      var nodes = Array.prototype.slice.call(content.childNodes);
      for (var k = 0; k < nodes.length; k++) await appendInOrder(document.body, nodes[k]);
      return;
    }
  }

  // ---- timing
  function findRoot() {
    return document.querySelector("[data-composition-id]");
  }
  // Start of an element on the root timeline: its own data-start plus every enclosing clip's start.
  function absoluteStart(el) {
    var total = 0;
    for (var node = el; node && node !== state.root; node = node.parentElement) {
      if (node.hasAttribute && node.hasAttribute("data-start")) total += num(node.getAttribute("data-start"), 0);
    }
    return total;
  }
  // The window [start, end) in which an element is on screen, narrowed by every enclosing clip.
  function windowOf(el) {
    var start = absoluteStart(el);
    var end = Infinity;
    var own = num(el.getAttribute("data-duration"), NaN);
    if (Number.isFinite(own)) end = start + own;
    for (var node = el.parentElement; node && node !== state.root; node = node.parentElement) {
      if (node.hasAttribute("data-start") && node.hasAttribute("data-duration")) {
        var s = absoluteStart(node);
        end = Math.min(end, s + num(node.getAttribute("data-duration"), Infinity));
      }
    }
    return { start: start, end: end };
  }
  function mediaSrc(el) {
    var src = el.getAttribute("src") || el.getAttribute("data-studio-video-src");
    if (!src) {
      var source = el.querySelector && el.querySelector("source[src]");
      if (source) src = source.getAttribute("src");
    }
    return src ? new URL(src, document.baseURI).href : null;
  }

  // HyperFrames 0.8.170 lays out the timed children of the root as layers (measured with its CLI, parity corpus
  // layered-clips): one not already absolute or fixed becomes position:absolute, so each sits at the root's top-left
  // (its margins still apply) and they paint in DOM order; data-track-index does not reorder them. A layer with
  // no size of its own gets its data-width/data-height, or else fills the root. An inline display:none is lifted
  // while measuring, as HyperFrames does.
  function placeRootClips(root) {
    var px = function (value) { var n = num(value, NaN); return Number.isFinite(n) ? n + "px" : null; };
    Array.prototype.forEach.call(root.children, function (el) {
      if (!el.hasAttribute("data-start") || /^(SCRIPT|STYLE|LINK|META)$/.test(el.nodeName)) return;
      var hidden = el.style.getPropertyValue("display") === "none";
      var priority = el.style.getPropertyPriority("display");
      if (hidden) el.style.removeProperty("display");
      var computed = getComputedStyle(el);
      if (computed.position !== "absolute" && computed.position !== "fixed") el.style.position = "absolute";
      if (el.nodeName !== "AUDIO") {
        var w = px(el.getAttribute("data-width")), h = px(el.getAttribute("data-height"));
        if (!el.style.width) {
          if (w) { if (computed.width === "0px" || computed.width === "auto") el.style.width = w; }
          else if (computed.width === "0px") el.style.width = "100%";
        }
        if (!el.style.height) {
          if (h) { if (computed.height === "0px" || computed.height === "auto") el.style.height = h; }
          else if (computed.height === "0px") el.style.height = "100%";
        }
      }
      if (hidden) el.style.setProperty("display", "none", priority);
    });
  }
  // Off its window, a clip in normal flow (position static, relative or sticky) holding no timed clip of its own
  // also leaves the layout (inline display:none, its own display restored when it shows again), as HyperFrames
  // 0.8.170 does (measured, parity corpus hidden-clips: a hidden clip in a flex row lets the others move). Any other
  // clip keeps its box (visibility only). Both answers are taken the first time the clip hides, as HyperFrames caches them.
  function setClipShown(clip, on) {
    var el = clip.el;
    if (on) {
      el.removeAttribute("data-studio-hidden");
      if (clip.savedDisplay) {
        if (clip.savedDisplay.value) el.style.setProperty("display", clip.savedDisplay.value, clip.savedDisplay.priority);
        else el.style.removeProperty("display");
        clip.savedDisplay = null;
      }
      return;
    }
    el.setAttribute("data-studio-hidden", "");
    if (clip.collapses === null) {
      clip.collapses = /^(static|relative|sticky)$/.test(getComputedStyle(el).position) && !el.querySelector("[data-start]");
    }
    if (clip.collapses && !clip.savedDisplay) {
      clip.savedDisplay = { value: el.style.getPropertyValue("display"), priority: el.style.getPropertyPriority("display") };
      el.style.display = "none";
    }
  }

  async function prepare() {
    await instantiateRootTemplate();
    await inlineSubCompositions();
    state.root = findRoot();
    if (!state.root) throw new Error("no element with data-composition-id: not a composition");
    // Swapped videos keep their source, read now that the parser has added any <source> children.
    for (var i = 0; i < swapped.length; i++) {
      var src = mediaSrc(swapped[i].original);
      if (src) swapped[i].img.setAttribute("data-studio-video-src", src);
    }
    var hosts = {};
    var hostEls = document.querySelectorAll("[data-composition-id]");
    for (var h = 0; h < hostEls.length; h++) {
      var hid = hostEls[h].getAttribute("data-composition-id");
      if (hostEls[h] !== state.root && !hosts[hid]) hosts[hid] = hostEls[h];
    }
    state.hosts = hosts;
    placeRootClips(state.root);
    state.clips = Array.prototype.filter.call(document.querySelectorAll("[data-start]"), function (el) {
      return el !== state.root && el.nodeName !== "AUDIO";
    }).map(function (el) { return { el: el, window: windowOf(el), collapses: null, savedDisplay: null }; });
    var videoEls = renderMode ? document.querySelectorAll("img[data-studio-video]") : document.querySelectorAll("video");
    state.videos = Array.prototype.map.call(videoEls, function (el, index) {
      var w = windowOf(el);
      return { el: el, index: index, window: w, mediaStart: num(el.getAttribute("data-media-start"), 0) };
    });
    // Play mode: every <audio> and <video> follows the one clock (render mode mixes audio with ffmpeg instead).
    state.media = renderMode ? [] : Array.prototype.map.call(document.querySelectorAll("audio, video"), function (el) {
      var volume = num(el.getAttribute("data-volume"), NaN);
      if (Number.isFinite(volume)) el.volume = Math.min(1, Math.max(0, volume));
      el.preload = "auto";
      return { el: el, window: windowOf(el), mediaStart: num(el.getAttribute("data-media-start"), 0) };
    });
    for (var id in window.__timelines) {
      var tl = window.__timelines[id];
      if (tl && typeof tl.pause === "function") tl.pause();
    }
    if (document.fonts && document.fonts.ready) await document.fonts.ready;
    await Promise.all(Array.prototype.map.call(document.images, function (img) {
      return img.getAttribute("src") ? img.decode().catch(function () {}) : null;
    }));
  }

  function ready() {
    if (!readyPromise) {
      readyPromise = new Promise(function (resolve) {
        if (document.readyState === "complete") resolve();
        else window.addEventListener("load", function () { resolve(); }, { once: true });
      }).then(prepare);
    }
    return readyPromise;
  }

  function duration() {
    var own = num(state.root.getAttribute("data-duration"), NaN);
    if (Number.isFinite(own)) return own;
    var id = state.root.getAttribute("data-composition-id");
    var tl = window.__timelines[id];
    return tl && typeof tl.duration === "function" ? tl.duration() : 0;
  }

  /** What the renderer needs to know: size, duration, and every sound on the timeline. */
  function info() {
    var audio = [];
    var push = function (el, kind) {
      var src = kind === "video" && renderMode ? el.getAttribute("data-studio-video-src") : mediaSrc(el);
      if (!src) return;
      var w = windowOf(el);
      var volume = num(el.getAttribute("data-volume"), num(el.getAttribute("volume"), 1));
      audio.push({
        kind: kind,
        src: src,
        start: w.start,
        duration: Number.isFinite(w.end) ? w.end - w.start : null,
        mediaStart: num(el.getAttribute("data-media-start"), 0),
        volume: volume,
      });
    };
    Array.prototype.forEach.call(document.querySelectorAll("audio"), function (el) {
      if (!el.hasAttribute("muted") && !el.hasAttribute("data-studio-hidden-muted")) push(el, "audio");
    });
    state.videos.forEach(function (v) {
      var declared = v.el.getAttribute("data-has-audio");
      var hasAudio = declared !== null ? declared !== "false" : !v.el.hasAttribute("muted");
      if (hasAudio) push(v.el, "video");
    });
    return {
      compositionId: state.root.getAttribute("data-composition-id"),
      width: num(state.root.getAttribute("data-width"), 1920),
      height: num(state.root.getAttribute("data-height"), 1080),
      duration: duration(),
      fps: state.root.getAttribute("data-fps"),
      timelines: Object.keys(window.__timelines),
      problems: problems.slice(),
      audio: audio,
      videos: state.videos.map(function (v) {
        return {
          index: v.index,
          src: renderMode ? v.el.getAttribute("data-studio-video-src") : mediaSrc(v.el),
          start: v.window.start,
          duration: Number.isFinite(v.window.end) ? v.window.end - v.window.start : null,
          mediaStart: v.mediaStart,
        };
      }),
    };
  }

  function configure(options) {
    for (var key in options) config[key] = options[key];
  }

  /** Shows the composition at time t (seconds): every timeline, every clip window, every video frame. */
  async function seek(t) {
    var root = state.root;
    var rootId = root.getAttribute("data-composition-id");
    for (var id in window.__timelines) {
      var tl = window.__timelines[id];
      if (!tl || typeof tl.seek !== "function") continue;
      var host = id === rootId ? null : state.hosts[id];
      var local = t;
      if (host) {
        var start = absoluteStart(host);
        var dur = num(host.getAttribute("data-duration"), Infinity);
        local = Math.min(Math.max(t - start, 0), dur);
      }
      tl.pause();
      try {
        tl.seek(local, false);
      } catch (error) {
        // A callback of the timeline threw (onUpdate, .call()): a finding naming the file, once per cause, and the
        // other timelines still seek. The node reads these after capture (late problems).
        var file = (host && host.getAttribute("data-studio-file")) || rootFile;
        problem("script error in " + file + " while seeking timeline \"" + id + "\": " + errorText(error));
      }
    }
    for (var c = 0; c < state.clips.length; c++) {
      var clip = state.clips[c];
      setClipShown(clip, t >= clip.window.start && t < clip.window.end);
    }
    var pending = [];
    for (var v = 0; v < state.videos.length; v++) {
      var video = state.videos[v];
      var localTime = Math.max(0, t - video.window.start);
      if (renderMode) {
        if (!config.videoFrameUrl) continue;
        var count = config.videoFrameCounts[video.index] || 0;
        if (count === 0) continue;
        var frame = Math.min(count, Math.floor((localTime * config.fps[0]) / config.fps[1] + 1e-6) + 1);
        var url = config.videoFrameUrl.replace("{index}", String(video.index)).replace("{frame}", String(frame));
        if (video.el.getAttribute("src") !== url) {
          video.el.setAttribute("src", url);
          pending.push(video.el.decode().catch(function () {}));
        }
      }
    }
    if (!renderMode) syncMedia(t);
    if (pending.length) await Promise.all(pending);
  }

  // Play mode: media inside its window plays along (corrected when it drifts); outside it, or when paused, it
  // rests at the frame the clock shows.
  var MAX_DRIFT = 0.25;
  function syncMedia(t) {
    for (var m = 0; m < state.media.length; m++) {
      var item = state.media[m];
      var el = item.el;
      var inside = t >= item.window.start && t < item.window.end;
      var target = Math.max(0, t - item.window.start) + item.mediaStart;
      if (playing && inside) {
        if (el.readyState >= 1 && Math.abs(el.currentTime - target) > MAX_DRIFT) el.currentTime = target;
        if (el.paused) el.play().catch(function () {});
      } else {
        if (!el.paused) el.pause();
        if (el.readyState >= 1 && Math.abs(el.currentTime - target) > 0.01) el.currentTime = target;
      }
    }
  }

  /** Play mode: whether the clock runs, so media plays instead of resting on a frame. */
  function setPlaying(value) {
    playing = !!value;
    if (!playing) for (var m = 0; m < state.media.length; m++) state.media[m].el.pause();
  }

  /** Problems so far, including those raised after loading (timers, timeline callbacks during seeks). */
  function currentProblems() { return problems.slice(); }
  window.__studio = { ready: ready, info: info, seek: seek, problems: currentProblems, configure: configure, setPlaying: setPlaying, renderMode: renderMode };
})();
