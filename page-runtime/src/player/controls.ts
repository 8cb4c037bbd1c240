// The player's bar: play/pause, loop, a scrubber and a time readout, placed outside <body> so the composition's own
// CSS (and the fit transform) leave it alone.

export interface ControlActions {
  toggle(): void;
  toggleLoop(): void;
  scrub(t: number): void;
}

export interface Controls {
  /** Height of the bar in CSS pixels (the composition fits above it). */
  height: number;
  show(clock: { time: number; duration: number; playing: boolean; loop: boolean }): void;
  setMax(duration: number): void;
  showError(text: string): void;
  /** A warning that stays in the bar (a GSAP release other than the one the page pinned). */
  showNotice(text: string): void;
}

const BAR = 56;

function fmt(t: number): string {
  return t.toFixed(2) + " s";
}

export function createControls(actions: ControlActions): Controls {
  const bar = document.createElement("div");
  bar.setAttribute("data-studio-player", "");
  bar.style.cssText =
    "position:fixed;left:0;right:0;bottom:0;height:" + BAR + "px;display:flex;align-items:center;gap:10px;padding:0 12px;" +
    "box-sizing:border-box;background:#111;color:#eee;font:13px/1 system-ui,sans-serif;z-index:2147483647";
  function button(label: string, title: string, onClick: () => void): HTMLButtonElement {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.title = title;
    b.style.cssText = "background:#333;color:#eee;border:0;border-radius:4px;padding:6px 10px;cursor:pointer;font:inherit";
    b.addEventListener("click", (e) => {
      e.preventDefault();
      onClick();
      b.blur();
    });
    bar.appendChild(b);
    return b;
  }
  const playButton = button("Play", "Play / pause (space)", actions.toggle);
  const loopButton = button("Loop: off", "Loop (L)", actions.toggleLoop);
  const scrub = document.createElement("input");
  scrub.type = "range";
  scrub.min = "0";
  scrub.step = "0.001";
  scrub.value = "0";
  scrub.setAttribute("aria-label", "time");
  scrub.style.cssText = "flex:1";
  scrub.addEventListener("input", () => actions.scrub(Number(scrub.value)));
  bar.appendChild(scrub);
  const readout = document.createElement("span");
  readout.setAttribute("data-studio-time", "");
  readout.style.cssText = "min-width:130px;text-align:right;font-variant-numeric:tabular-nums";
  bar.appendChild(readout);
  document.documentElement.appendChild(bar);
  return {
    height: BAR,
    show(clock) {
      scrub.value = String(clock.time);
      readout.textContent = fmt(clock.time) + " / " + fmt(clock.duration);
      playButton.textContent = clock.playing ? "Pause" : "Play";
      loopButton.textContent = clock.loop ? "Loop: on" : "Loop: off";
    },
    setMax(duration) {
      scrub.max = String(duration);
    },
    showNotice(text) {
      const note = document.createElement("span");
      note.setAttribute("data-studio-notice", "");
      note.textContent = "\u26a0 " + text;
      note.title = text;
      note.style.cssText = "max-width:40%;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;color:#fc6";
      bar.insertBefore(note, readout);
      document.documentElement.setAttribute("data-studio-player-notice", text);
    },
    showError(text) {
      readout.textContent = text;
      document.documentElement.setAttribute("data-studio-player-error", text);
    },
  };
}
