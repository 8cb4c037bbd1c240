// Studio player, bundled into the script /play pages and preview servers load after the runtime (in "play" mode).
// One clock drives every registered timeline and all media through window.__studio.seek: play, pause, scrub,
// loop, keyboard shortcuts (space, arrows, Home/End, L). The composition is scaled to fit above the controls.
// With data-reload-url it listens for `reload` events (preview) and comes back at the same time after reloading.
import type { PlayerApi, StudioApi } from "../../api.ts";
import { createControls } from "./controls.ts";
import { defineFrozenGlobal } from "../runtime/page-globals.ts";
import { logIgnored } from "../runtime/log-ignored.ts";

interface PlayerWindow {
  __studio?: StudioApi;
  __studioPlayer?: PlayerApi;
}

function studioPlayer(): void {
  const page = window as unknown as Window & PlayerWindow;
  const studio = page.__studio;
  if (!studio || page.__studioPlayer) return;
  const script = document.currentScript as HTMLScriptElement | null;
  const reloadUrl = script && script.dataset ? script.dataset["reloadUrl"] : null;
  const STORE = "studio-player:" + location.pathname;

  const clock = { time: 0, duration: 0, playing: false, loop: false, startedAt: 0, startTime: 0, ready: false };
  const ui = createControls({ toggle: () => toggle(), toggleLoop: () => setLoop(!clock.loop), scrub: (t) => seekTo(t) });
  // What the page builder substituted (build-play-page.ts): the viewer sees it, as a render's log would say it.
  const notice = script && script.dataset ? script.dataset["notice"] : null;
  if (notice) {
    ui.showNotice(notice);
    console.warn(notice);
  }

  function fit(): void {
    const info = studio!.info();
    const body = document.body;
    let scale = Math.min(window.innerWidth / info.width, (window.innerHeight - ui.height) / info.height);
    if (!(scale > 0)) scale = 1;
    body.style.transformOrigin = "0 0";
    body.style.transform = "scale(" + scale + ")";
    document.documentElement.style.background = "#000";
  }

  const show = () => ui.show(clock);

  // ---- the clock
  function render(): void {
    void studio!.seek(clock.time);
    show();
  }
  function seekTo(t: number): void {
    if (!clock.ready) return;
    clock.time = Math.min(Math.max(0, t), clock.duration);
    clock.startTime = clock.time;
    clock.startedAt = performance.now();
    render();
  }
  function play(): void {
    if (!clock.ready || clock.playing) return;
    if (clock.time >= clock.duration) clock.time = 0;
    clock.playing = true;
    clock.startTime = clock.time;
    clock.startedAt = performance.now();
    studio!.setPlaying(true);
    requestAnimationFrame(tick);
    render();
  }
  function pause(): void {
    clock.playing = false;
    studio!.setPlaying(false);
    render();
  }
  function toggle(): void {
    if (clock.playing) pause();
    else play();
  }
  function setLoop(value: boolean): void {
    clock.loop = value;
    show();
  }
  function tick(now: number): void {
    if (!clock.playing) return;
    let t = clock.startTime + (now - clock.startedAt) / 1000;
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
  function frameSeconds(): number {
    const match = /^\s*(\d+)(?:\/(\d+))?\s*$/.exec(studio!.info().fps || "");
    const rate = match ? Number(match[1]) / Number(match[2] || 1) : 30;
    return rate > 0 && Number.isFinite(rate) ? 1 / rate : 1 / 30;
  }

  document.addEventListener("keydown", (e) => {
    const target = e.target as HTMLInputElement | null;
    if (target && target.nodeName === "INPUT" && target.type !== "range") return;
    const step = e.shiftKey ? frameSeconds() : 1;
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
    const events = new EventSource(reloadUrl);
    events.addEventListener("reload", () => {
      try {
        sessionStorage.setItem(STORE, JSON.stringify({ time: clock.time, loop: clock.loop }));
      } catch (error) {
        // Storage may be off: the reload starts at the beginning instead.
        logIgnored("the player's time is not kept across the reload", error);
      }
      location.reload();
    });
  }

  // Frozen and fixed like window.__studio (page-globals.ts): a page script cannot swap the player it is shown in.
  defineFrozenGlobal("__studioPlayer", {
    play,
    pause,
    seek: seekTo,
    setLoop,
    state: () => ({ time: clock.time, duration: clock.duration, playing: clock.playing, loop: clock.loop, ready: clock.ready }),
  });

  // "#t=2.5" (as in media fragments) opens the page at that time, and changing it seeks: the dashboard's editor
  // preview points here at the time being edited.
  function hashTime(): number | null {
    const m = /(?:^#|&)t=(\d+(?:\.\d+)?)/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }
  window.addEventListener("hashchange", () => {
    const t = hashTime();
    if (t !== null && clock.ready) seekTo(t);
  });

  studio.ready().then(
    () => {
      clock.duration = studio.info().duration;
      ui.setMax(clock.duration);
      clock.ready = true;
      try {
        const saved = JSON.parse(sessionStorage.getItem(STORE) || "null") as { time?: unknown; loop?: unknown } | null;
        sessionStorage.removeItem(STORE);
        if (saved) {
          clock.time = Math.min(Number(saved.time) || 0, clock.duration);
          clock.loop = !!saved.loop;
        } else if (hashTime() !== null) {
          clock.time = Math.min(hashTime()!, clock.duration);
        }
      } catch (error) {
        // Storage off or a saved value that is not JSON: the player starts at the URL's time, else 0.
        logIgnored("the player's saved time cannot be read", error);
      }
      fit();
      window.addEventListener("resize", fit);
      render();
      document.documentElement.setAttribute("data-studio-player-ready", "");
    },
    (error: unknown) => {
      ui.showError("error: " + (error && typeof error === "object" && "message" in error && (error as Error).message ? (error as Error).message : String(error)));
    },
  );
}

studioPlayer();
