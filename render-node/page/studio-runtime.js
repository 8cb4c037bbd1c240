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
    style.textContent = ":where(img[data-studio-video]){object-fit:contain}[data-studio-hidden]{display:none!important}";
    document.documentElement.appendChild(style);
    new MutationObserver(function (records) {
      for (var r = 0; r < records.length; r++) {
        var added = records[r].addedNodes;
        for (var a = 0; a < added.length; a++) visit(added[a]);
      }
    }).observe(document.documentElement, { childList: true, subtree: true });
  } else {
    var playStyle = document.createElement("style");
    playStyle.textContent = "[data-studio-hidden]{display:none!important}";
    document.documentElement.appendChild(playStyle);
  }

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
  function runScript(old, parent, before) {
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
      } else {
        fresh.textContent = old.textContent;
      }
      parent.insertBefore(fresh, before || null);
      if (!src) resolve();
    });
  }
  async function appendInOrder(parent, node) {
    if (node.nodeName === "SCRIPT") return runScript(node, parent, null);
    var imported = document.importNode(node, true);
    var nested = imported.querySelectorAll ? Array.prototype.slice.call(imported.querySelectorAll("script")) : [];
    parent.appendChild(imported);
    for (var i = 0; i < nested.length; i++) {
      var s = nested[i];
      await runScript(s, s.parentNode, s);
      s.remove();
    }
  }
  async function inlineOne(host) {
    var src = host.getAttribute("data-composition-src");
    var url = new URL(src, document.baseURI);
    var res = await fetch(url.href);
    if (!res.ok) throw new Error("sub-composition " + src + " could not be loaded: HTTP " + res.status);
    var doc = new DOMParser().parseFromString(await res.text(), "text/html");
    var template = doc.querySelector("template");
    var container = template ? template.content : doc.body;
    var id = host.getAttribute("data-composition-id");
    var elements = Array.prototype.filter.call(container.childNodes, function (n) { return n.nodeType === 1 && n.nodeName !== "SCRIPT" && n.nodeName !== "STYLE"; });
    var inner = elements.length === 1 && elements[0].hasAttribute("data-composition-id") ? elements[0] : null;
    var items = [];
    if (!template) items = items.concat(Array.prototype.slice.call(doc.head.querySelectorAll("style, link[rel=stylesheet], script")));
    if (inner) {
      // The file's own root carries the same composition id as the host: unwrap it into the host.
      for (var i = 0; i < inner.attributes.length; i++) {
        var attr = inner.attributes[i];
        if (attr.name === "class") host.classList.add.apply(host.classList, attr.value.split(/\s+/).filter(Boolean));
        else if (!host.hasAttribute(attr.name) && attr.name !== "id" && attr.name !== "data-start") host.setAttribute(attr.name, attr.value);
      }
      if (!id) host.setAttribute("data-composition-id", inner.getAttribute("data-composition-id"));
      Array.prototype.forEach.call(container.childNodes, function (n) { if (n !== inner) items.push(n); });
      items = items.concat(Array.prototype.slice.call(inner.childNodes));
    } else {
      items = items.concat(Array.prototype.slice.call(container.childNodes));
    }
    for (var k = 0; k < items.length; k++) await appendInOrder(host, items[k]);
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

  async function prepare() {
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
    state.clips = Array.prototype.filter.call(document.querySelectorAll("[data-start]"), function (el) {
      return el !== state.root && el.nodeName !== "AUDIO";
    }).map(function (el) { return { el: el, window: windowOf(el) }; });
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
      timelines: Object.keys(window.__timelines),
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
      tl.seek(local, false);
    }
    for (var c = 0; c < state.clips.length; c++) {
      var clip = state.clips[c];
      var on = t >= clip.window.start && t < clip.window.end;
      if (on) clip.el.removeAttribute("data-studio-hidden");
      else clip.el.setAttribute("data-studio-hidden", "");
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

  window.__studio = { ready: ready, info: info, seek: seek, configure: configure, setPlaying: setPlaying, renderMode: renderMode };
})();
