// A read-only board to replay a finished game (history, stored games, PGN): |< < > >|
// and the move list, arrow keys when it has the focus.
import { MARK, createBoard } from "./board.js";
import { button, el } from "./dom.js";
import { playLine } from "./line.js";
import { renderMoveList } from "./movelist.js";
import { parseFen, placementOf } from "./position.js";
import { variantOf } from "./variants.js";

export function createReplayView(container, { initialFen = "", moves = [], white = "", black = "", result = "", variant = 0 } = {}) {
  const start = parseFen(initialFen);
  const line = playLine(initialFen, moves);
  let ply = line.length - 1;
  let orientation = "w";
  const name = typeof variant === "number" || /^\d+$/.test(String(variant)) ? variantOf(variant).name : String(variant);

  const boardBox = el("div", { class: "gv-board" });
  const list = el("div", { class: "gv-moves" });
  const nav = el(
    "div",
    { class: "gv-nav" },
    button("|◀", () => go(-1), { title: "Start", "data-nav": "start" }),
    button("◀", () => go(ply - 1), { title: "Back", "data-nav": "back" }),
    button("▶", () => go(ply + 1), { title: "Forward", "data-nav": "forward" }),
    button("▶|", () => go(line.length - 1), { title: "End", "data-nav": "end" }),
    button("⇅", () => flip(), { title: "Flip the board", "data-nav": "flip" }),
  );
  const title = el("div", { class: "gv-info", text: `${white || "White"} – ${black || "Black"}${name && name !== "Chess" ? ` · ${name}` : ""}` });
  const banner = el("div", { class: "gv-banner", text: result || "", hidden: !result });
  const note = moves.length > line.length ? el("div", { class: "gv-status", text: `Shown up to move ${line.length}: ${moves[line.length]} cannot be played here.` }) : null;
  const root = el(
    "div",
    { class: "gv gv-replay", tabindex: "0", onkeydown: key },
    el("div", { class: "gv-boardcol" }, boardBox),
    el("div", { class: "gv-side" }, title, banner, list, nav, note),
  );
  const host = el("div", { class: "gv-host" }, root); // the container game.css sizes by
  container.append(host);
  const board = createBoard(boardBox, { placement: placementOf(line.length ? line[ply].pos : start), orientation });
  render();

  function key(event) {
    const moves = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: -1, End: line.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]);
    }
  }

  function go(to) {
    ply = Math.max(-1, Math.min(line.length - 1, to));
    render();
  }

  function flip() {
    orientation = orientation === "w" ? "b" : "w";
    board.setOrientation(orientation);
  }

  function render() {
    const step = ply >= 0 ? line[ply] : null;
    board.setPosition(placementOf(step ? step.pos : start), true);
    board.mark(MARK.lastMove, step ? [step.from, step.to] : []);
    renderMoveList(list, line.map((s) => s.san), {
      firstTurn: start.turn,
      firstNumber: start.fullmove,
      current: ply,
      onPick: (i) => go(i),
    });
  }

  return {
    flip,
    goto: go,
    destroy() {
      board.destroy();
      host.remove();
    },
  };
}
