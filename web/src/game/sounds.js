// Sounds of a game: move, capture, check, start, end, low time; files in static/sounds/
// (made by web/scripts/make-sounds.mjs). One switch for all views, kept in localStorage.

const FILES = {
  move: "sounds/move.wav",
  capture: "sounds/capture.wav",
  check: "sounds/check.wav",
  start: "sounds/start.wav",
  end: "sounds/end.wav",
  lowtime: "sounds/lowtime.wav",
};
const KEY = "icswire.sound";
const cache = new Map();

export function soundOn() {
  try {
    return globalThis.localStorage?.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

export function setSoundOn(on) {
  try {
    globalThis.localStorage?.setItem(KEY, on ? "on" : "off");
  } catch {
    // storage refused (private mode): the switch lasts for the page
  }
  for (const listener of listeners) listener(on);
}

const listeners = new Set();

/** Calls ``listener(on)`` when the switch changes; returns the unsubscribe function. */
export function onSoundChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function play(name) {
  if (!soundOn() || !FILES[name] || typeof Audio === "undefined") return;
  let audio = cache.get(name);
  if (!audio) {
    audio = new Audio(FILES[name]);
    cache.set(name, audio);
  }
  audio.currentTime = 0;
  audio.play().catch(() => {}); // autoplay refused before the first click: stay silent
}

/** The sound of a move in SAN and SMITH: check, capture or a plain move. */
export function moveSound(san, smith) {
  if (/[+#]$/.test(san || "")) return "check";
  if (/x/.test(san || "") || /^[a-h][1-8][a-h][1-8][pnbrqkE]/.test(smith || "")) return "capture";
  return "move";
}
