// Studio player: runs after the runtime (studio-runtime.js in "play" mode) in /play pages and preview servers.
// One clock drives every registered timeline and all media through window.__studio.seek: play, pause, scrub,
// loop, keyboard shortcuts (space, arrows, Home/End, L). The composition is scaled to fit above the controls.
// With data-reload-url it listens for `reload` events (preview) and comes back at the same time after reloading.
// Plain browser JavaScript with no build step.
(function studioPlayer() {
  "use strict";
  if (!window.__studio || window.__studioPlayer) return;
  var script = document.currentScript;
  var reloadUrl = script && script.dataset ? script.dataset.reloadUrl : null;
  var BAR = 56;
  var STORE = "studio-player:" + location.pathname;

  var clock = { time: 0, duration: 0, playing: false, loop: false, startedAt: 0, startTime: 0, ready: false };

  function fmt(t) {
    return t.toFixed(2) + " s";
  }

  // ---- controls, outside <body> so the composition's own CSS (and the fit transform) leave them alone
  var bar = document.createElement("div");
  bar.setAttribute("data-studio-player", "");
  bar.style.cssText =
    "position:fixed;left:0;right:0;bottom:0;height:" + BAR + "px;display:flex;align-items:center;gap:10px;padding:0 12px;" +
    "box-sizing:border-box;background:#111;color:#eee;font:13px/1 system-ui,sans-serif;z-index:2147483647";
  function button(label, title, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.title = title;
    b.style.cssText = "background:#333;color:#eee;border:0;border-radius:4px;padding:6px 10px;cursor:pointer;font:inherit";
    b.addEventListener("click", function (e) {
      e.preventDefault();
      onClick();
      b.blur();
    });
    bar.appendChild(b);
    return b;
  }
  var playButton = button("Play", "Play / pause (space)", function () { toggle(); });
  var loopButton = button("Loop: off", "Loop (L)", function () { setLoop(!clock.loop); });
  var scrub = document.createElement("input");
  scrub.type = "range";
  scrub.min = "0";
  scrub.step = "0.001";
  scrub.value = "0";
  scrub.setAttribute("aria-label", "time");
  scrub.style.cssText = "flex:1";
  scrub.addEventListener("input", function () { seekTo(Number(scrub.value)); });
  bar.appendChild(scrub);
  var readout = document.createElement("span");
  readout.setAttribute("data-studio-time", "");
  readout.style.cssText = "min-width:130px;text-align:right;font-variant-numeric:tabular-nums";
  bar.appendChild(readout);
  document.documentElement.appendChild(bar);

  function fit() {
    var info = window.__studio.info();
    var body = document.body;
    var scale = Math.min(window.innerWidth / info.width, (window.innerHeight - BAR) / info.height);
    if (!(scale > 0)) scale = 1;
    body.style.transformOrigin = "0 0";
    body.style.transform = "scale(" + scale + ")";
    document.documentElement.style.background = "#000";
  }

  function show() {
    scrub.value = String(clock.time);
    readout.textContent = fmt(clock.time) + " / " + fmt(clock.duration);
    playButton.textContent = clock.playing ? "Pause" : "Play";
    loopButton.textContent = clock.loop ? "Loop: on" : "Loop: off";
  }

  // ---- the clock
  function render() {
    window.__studio.seek(clock.time);
    show();
  }
  function seekTo(t) {
    if (!clock.ready) return;
    clock.time = Math.min(Math.max(0, t), clock.duration);
    clock.startTime = clock.time;
    clock.startedAt = performance.now();
    render();
  }
  function play() {
    if (!clock.ready || clock.playing) return;
    if (clock.time >= clock.duration) clock.time = 0;
    clock.playing = true;
    clock.startTime = clock.time;
    clock.startedAt = performance.now();
    window.__studio.setPlaying(true);
    requestAnimationFrame(tick);
    render();
  }
  function pause() {
    clock.playing = false;
    window.__studio.setPlaying(false);
    render();
  }
  function toggle() {
    if (clock.playing) pause();
    else play();
  }
  function setLoop(value) {
    clock.loop = value;
    show();
  }
  function tick(now) {
    if (!clock.playing) return;
    var t = clock.startTime + (now - clock.startedAt) / 1000;
    if (t >= clock.duration) {
      if (clock.loop && clock.duration > 0) {
        t = t % clock.duration;
        clock.startTime = t;
        clock.startedAt = now;
      } else {
        clock.time = clock.duration;
        pause();
        return;
      }
    }
    clock.time = t;
    render();
    requestAnimationFrame(tick);
  }

  // One frame at the root's data-fps ("24", "30000/1001"), else 30 fps, as a render would use.
  function frameSeconds() {
    var match = /^\s*(\d+)(?:\/(\d+))?\s*$/.exec(window.__studio.info().fps || "");
    var rate = match ? Number(match[1]) / Number(match[2] || 1) : 30;
    return rate > 0 && Number.isFinite(rate) ? 1 / rate : 1 / 30;
  }

  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.nodeName === "INPUT" && e.target.type !== "range")) return;
    var step = e.shiftKey ? frameSeconds() : 1;
    if (e.key === " " || e.code === "Space") toggle();
    else if (e.key === "ArrowLeft") seekTo(clock.time - step);
    else if (e.key === "ArrowRight") seekTo(clock.time + step);
    else if (e.key === "Home") seekTo(0);
    else if (e.key === "End") seekTo(clock.duration);
    else if (e.key === "l" || e.key === "L") setLoop(!clock.loop);
    else return;
    e.preventDefault();
  });

  // ---- reload on change (preview), coming back at the same time
  if (reloadUrl && window.EventSource) {
    var events = new EventSource(reloadUrl);
    events.addEventListener("reload", function () {
      try {
        sessionStorage.setItem(STORE, JSON.stringify({ time: clock.time, loop: clock.loop }));
      } catch (e) { /* storage may be off */ }
      location.reload();
    });
  }

  window.__studioPlayer = {
    play: play,
    pause: pause,
    seek: seekTo,
    setLoop: setLoop,
    state: function () {
      return { time: clock.time, duration: clock.duration, playing: clock.playing, loop: clock.loop, ready: clock.ready };
    },
  };

  // "#t=2.5" (as in media fragments) opens the page at that time, and changing it seeks: the dashboard's editor
  // preview points here at the time being edited.
  function hashTime() {
    var m = /(?:^#|&)t=(\d+(?:\.\d+)?)/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }
  window.addEventListener("hashchange", function () {
    var t = hashTime();
    if (t !== null && clock.ready) seekTo(t);
  });

  window.__studio.ready().then(function () {
    clock.duration = window.__studio.info().duration;
    scrub.max = String(clock.duration);
    clock.ready = true;
    try {
      var saved = JSON.parse(sessionStorage.getItem(STORE) || "null");
      sessionStorage.removeItem(STORE);
      if (saved) {
        clock.time = Math.min(Number(saved.time) || 0, clock.duration);
        clock.loop = !!saved.loop;
      } else if (hashTime() !== null) {
        clock.time = Math.min(hashTime(), clock.duration);
      }
    } catch (e) { /* ignore */ }
    fit();
    window.addEventListener("resize", fit);
    render();
    document.documentElement.setAttribute("data-studio-player-ready", "");
  }, function (error) {
    readout.textContent = "error: " + (error && error.message ? error.message : String(error));
    document.documentElement.setAttribute("data-studio-player-error", readout.textContent);
  });
})();
