// The bars above and below the board: a player's titles, name and rating, the holdings
// (crazyhouse, bughouse) and the clock.
import { formatClock, remaining, untilChange } from "./clock.js";
import { el, playerLabel } from "./dom.js";

/** Below this many milliseconds a clock shows as low. */
export const LOW_TIME_MS = 10000;

export function playerBar() {
  const name = el("span", { class: "gv-name" });
  const titles = el("span", { class: "gv-titles" });
  const rating = el("span", { class: "gv-rating" });
  const holding = el("div", { class: "gv-holding" });
  const clock = el("div", { class: "gv-clock" });
  const who = el("div", { class: "gv-who" }, titles, name, rating);
  const element = el("div", { class: "gv-player" }, who, holding, clock);
  return { element, name, titles, rating, holding, clock };
}

/** The player of ``color`` in ``bar``, marked when on move. */
export function drawPlayer(bar, player, color, toMove) {
  const p = playerLabel(player);
  bar.titles.textContent = p.titles;
  bar.name.textContent = p.name;
  bar.rating.textContent = p.rating ? `(${p.rating})` : "";
  bar.element.dataset.color = color;
  bar.element.classList.toggle("to-move", toMove);
}

/** Whether a game shows no clocks: untimed (0 0, most examined games) with none set. */
export function untimed(state) {
  return !state.initial[0] && !state.increment[0] && !state.clocks.w.ms && !state.clocks.b.ms;
}

/** Show ``side`` (a clock of state.clocks) in ``bar`` at local time ``now``; returns
 * {ms, wake}: the time left and how long until its text changes (null when stopped). */
export function drawClock(bar, side, now, { hidden, played }) {
  const ms = remaining(side, now);
  const text = formatClock(ms);
  bar.clock.hidden = hidden;
  if (bar.clock.textContent !== text) bar.clock.textContent = text;
  bar.clock.classList.toggle("running", side.running);
  bar.clock.classList.toggle("low", ms < LOW_TIME_MS && (side.running || (ms <= 0 && played)));
  return { ms, wake: side.running && ms > 0 ? untilChange(ms) : null };
}
