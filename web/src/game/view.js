// The live game view: a board to play, watch or examine one game, fed by the session's
// datagrams (state.js reduces them) and sending the user's moves and commands.
import { MARK, createBoard } from "./board.js";
import { timeControl } from "./clock.js";
import { renderControls, renderOffers } from "./controls.js";
import { button, el } from "./dom.js";
import { renderHolding } from "./holdings.js";
import { dropTargets, encodeMove, isPromotion, mayMove, targets } from "./legal.js";
import { moveNote, renderMoveList } from "./movelist.js";
import { colorOf, kingSquare, placementOf, smithParts, squareIndex } from "./position.js";
import { LOW_TIME_MS, drawClock, drawPlayer, playerBar, untimed } from "./players.js";
import { createPremove } from "./premove.js";
import { moveSound, onSoundChange, play, setSoundOn, soundOn } from "./sounds.js";
import { REDUCED_DGS, canMove, canPremove, initialState, reduce } from "./state.js";

const ILLEGAL_REASONS = {
  1: "bad or ambiguous notation", 3: "your king is in check", 4: "not your move",
  5: "you do not hold that piece", 6: "the drop square is not empty", 7: "no pawn drops on the first or last rank",
  9: "wait a few seconds", 10: "you lost on time",
};

const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

export function createGameView(container, session, { gamenumber, role, started }) {
  const record = started || { gamenumber };
  let state = initialState({ ...record, gamenumber }, role, session.me, now());
  let orientation = state.mine === "b" ? "b" : "w";
  let viewPly = null; // null: the live position; -1 the start, i the position after ply i
  let dropPick = null; // the held piece picked for a drop
  let status = "";
  let replaying = 0; // moves still to come after DG_POSITION_BEGIN: no sounds for them
  let sound = null; // the move sound of this batch of datagrams (one for "forward 999")
  let lowTimeSounded = false;
  let scheduled = false;
  let destroyed = false;
  const premove = createPremove();

  // -- the page --
  const top = playerBar();
  const bottom = playerBar();
  const boardBox = el("div", { class: "gv-board" });
  const banner = el("div", { class: "gv-banner", hidden: true });
  const offers = el("div", { class: "gv-offers", hidden: true });
  const controls = el("div", { class: "gv-controls" });
  const moves = el("div", { class: "gv-moves", role: "list" });
  const statusText = el("span");
  const cancelButton = button("Cancel premove", cancelPremove, { class: "gv-cancel-premove", hidden: true });
  const statusLine = el("div", { class: "gv-status", "aria-live": "polite" }, statusText, cancelButton);
  const soundButton = button("", () => setSoundOn(!soundOn()), { class: "gv-sound" });
  const nav = el(
    "div",
    { class: "gv-nav" },
    button("|◀", () => look(-1), { title: "Start", "data-nav": "start" }),
    button("◀", () => look(shownPly() - 1), { title: "Back", "data-nav": "back" }),
    button("▶", () => look(shownPly() + 1), { title: "Forward", "data-nav": "forward" }),
    button("▶|", () => look(null), { title: "Live position", "data-nav": "live" }),
    button("⇅", () => flip(), { title: "Flip the board", "data-nav": "flip" }),
    soundButton,
  );
  const info = el("div", { class: "gv-info" });
  const root = el(
    "div",
    { class: "gv", "data-game": String(gamenumber), "data-role": role, tabindex: "0", onkeydown: key },
    el("div", { class: "gv-boardcol" }, top.element, boardBox, bottom.element),
    el("div", { class: "gv-side" }, info, banner, offers, controls, moves, nav, statusLine),
  );
  const host = el("div", { class: "gv-host" }, root); // the container game.css sizes by
  container.append(host);

  const board = createBoard(boardBox, {
    placement: placementOf(state.pos),
    orientation,
    input: { start: inputStart, validate: inputValidate, canceled: () => board.clearHints() },
  });
  const unClick = board.onSquareClick(dropOn);
  boardBox.addEventListener("contextmenu", cancelPremove);
  const unSound = onSoundChange(() => renderSoundButton());
  const unsubscribe = REDUCED_DGS.map((name) => session.on(name, (r) => receive(name, r)));
  let ticker = null; // the timer that next changes a running clock's text
  play("start");
  schedule();

  // -- datagrams --
  function receive(name, record) {
    const before = state;
    state = reduce(state, name, record, now());
    if (state === before) return;
    if (name === "DG_POSITION_BEGIN") replaying = Number(record.nmoves) || 0;
    if (name === "DG_SEND_MOVES" && state.plies.length > before.plies.length) moved(before);
    if (name === "DG_BACKWARD" || name === "DG_TAKEBACK" || name === "DG_POSITION_BEGIN") {
      premove.clear();
      if (viewPly !== null && viewPly >= state.plies.length) viewPly = null;
    }
    if (state.illegal !== before.illegal) {
      const why = ILLEGAL_REASONS[state.illegal.reason];
      status = `Illegal move ${state.illegal.move}${why ? `: ${why}` : ""}.`;
      board.setPosition(placementOf(state.pos), false); // snap back
    }
    if (state.result && !before.result) {
      premove.clear();
      sound = null; // the end's sound, not also the last move's
      play("end");
    }
    schedule();
  }

  function moved(before) {
    const ply = state.plies[state.plies.length - 1];
    if (replaying > 0) {
      replaying -= 1;
      return;
    }
    status = "";
    sound = moveSound(ply.san, ply.smith);
    if (before.pos.turn !== state.mine && canMove(state) && premove.move) {
      const move = premove.take((m) => (m.drop ? !state.pos.board[squareIndex(m.to)] : mayMove(state.pos, m.from, m.to, state.variant)));
      if (move) session.send(encodeMove(state.pos, move, state.variant));
      else status = "Premove dropped: not possible now.";
    }
  }

  // -- input --
  function shownPly() {
    return viewPly === null ? state.plies.length - 1 : viewPly;
  }

  function inputStart(square) {
    if (viewPly !== null) return false;
    const piece = state.pos.board[squareIndex(square)];
    if (!piece) return false;
    dropPick = null;
    if (canMove(state)) {
      if (colorOf(piece) !== state.pos.turn) return false;
      board.showHints(targets(state.pos, square, state.variant));
      return true;
    }
    if (canPremove(state)) return colorOf(piece) === state.mine;
    return false;
  }

  function inputValidate(from, to) {
    board.clearHints();
    if (canMove(state)) {
      if (!mayMove(state.pos, from, to, state.variant)) return false;
      if (isPromotion(state.pos, from, to)) {
        promote(from, to);
        return true;
      }
      sendMove({ from, to });
      return true;
    }
    if (canPremove(state)) {
      premove.set({ from, to, promotion: isPromotion(state.pos, from, to) ? "q" : "" });
      schedule();
      const target = state.pos.board[squareIndex(to)];
      if (target && colorOf(target) === state.mine) {
        setTimeout(() => board.setPosition(placementOf(state.pos), false)); // a recapture premove
        return true;
      }
      return false;
    }
    return false;
  }

  async function promote(from, to) {
    const piece = await board.choosePromotion(to, state.pos.turn);
    if (piece) sendMove({ from, to, promotion: piece });
    else board.setPosition(placementOf(state.pos), false);
  }

  function sendMove(move) {
    status = "";
    session.send(encodeMove(state.pos, move, state.variant));
  }

  function pickHeld(letter) {
    dropPick = dropPick === letter ? null : letter;
    board.mark(MARK.hint, dropPick && canMove(state) ? dropTargets(state.pos, letter) : []);
    schedule();
  }

  function dropOn(square) {
    if (!dropPick || state.pos.board[squareIndex(square)]) return;
    const move = { drop: dropPick, to: square };
    dropPick = null;
    board.clearHints();
    if (canMove(state)) sendMove(move);
    else if (canPremove(state)) premove.set(move);
    schedule();
  }

  /** The button, or a right click on the board, drops the premove. */
  function cancelPremove(event) {
    if (!premove.move) return;
    if (event && event.type === "contextmenu") event.preventDefault();
    premove.clear();
    schedule();
  }

  /** Arrow keys look back and forth, Home/End go to the start and the live position. */
  function key(event) {
    if (event.target.closest && event.target.closest("input, textarea")) return;
    const to = { ArrowLeft: shownPly() - 1, ArrowRight: shownPly() + 1, Home: -1, End: null }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    look(to);
  }

  // -- looking back --
  function look(ply) {
    const last = state.plies.length - 1;
    if (ply === null || ply >= last) viewPly = null;
    else viewPly = Math.max(-1, ply);
    schedule();
  }

  function flip() {
    orientation = orientation === "w" ? "b" : "w";
    schedule();
  }

  // -- drawing --
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(render);
  }

  function render() {
    scheduled = false;
    if (destroyed) return;
    if (sound) play(sound);
    sound = null;
    const shown = viewPly === null ? state.pos : viewPly < 0 ? state.start : state.plies[viewPly].pos;
    const ply = viewPly === null ? state.plies[state.plies.length - 1] : viewPly >= 0 ? state.plies[viewPly] : null;
    board.setOrientation(orientation);
    board.setPosition(placementOf(shown), true);
    const last = ply ? smithParts(ply.smith) : null;
    board.mark(MARK.lastMove, last ? [last.from, last.to] : []);
    const check = ply && /[+#]$/.test(ply.san) ? kingSquare(shown, shown.turn) : null;
    board.mark(MARK.check, check ? [check] : []);
    const pre = premove.move;
    board.mark(MARK.premove, pre ? [pre.from, pre.to] : []);

    const lower = orientation;
    const upper = lower === "w" ? "b" : "w";
    drawBar(bottom, lower);
    drawBar(top, upper);
    tick();

    const v = state.variant;
    const [white, black] = [0, 1].map((i) => timeControl(state.initial[i], state.increment[i]));
    const tc = white === black ? white : `${white} v ${black}`; // time odds
    info.textContent = `Game ${state.gamenumber} · ${v.name} · ${state.rated ? "rated" : "unrated"} ${state.ratingType} ${tc}`.replace(/\s+/g, " ");
    if (state.result) {
      banner.hidden = false;
      banner.textContent = `${state.result.score} ${state.result.description}`;
    } else banner.hidden = true;
    renderOffers(offers, state, (line) => session.send(line));
    renderControls(controls, state, (line) => session.send(line));
    renderMoveList(moves, state.plies.map((p) => p.san), {
      firstTurn: state.start.turn,
      firstNumber: state.start.fullmove,
      current: shownPly(),
      onPick: (i) => look(i),
      notes: state.plies.map((p) => moveNote(p.time, p.clock)),
    });
    root.dataset.role = state.role;
    root.classList.toggle("looking-back", viewPly !== null);
    root.classList.toggle("my-turn", canMove(state) && state.role === "play");
    statusText.textContent = pre ? `Premove ${encodeMove(state.pos, pre, state.variant)}` : status;
    cancelButton.hidden = !pre;
    renderSoundButton();
  }

  function drawBar(bar, color) {
    drawPlayer(bar, color === "w" ? state.white : state.black, color, state.pos.turn === color && !state.result);
    if (state.holdings) {
      const mover = state.role === "play" ? state.mine : state.pos.turn;
      const pickable = color === mover && (canMove(state) || canPremove(state)) && viewPly === null;
      renderHolding(bar.holding, state.holdings[color], color, { pickable, selected: pickable ? dropPick : null, onPick: pickHeld });
    } else bar.holding.replaceChildren();
  }

  /** Show both clocks now, and wake again when a running one's text next changes. */
  function tick() {
    clearTimeout(ticker);
    ticker = null;
    if (destroyed) return;
    const t = now();
    const shown = { hidden: untimed(state), played: state.played };
    let wake = null;
    for (const [bar, color] of [[bottom, orientation], [top, orientation === "w" ? "b" : "w"]]) {
      const clock = drawClock(bar, state.clocks[color], t, shown);
      if (color === state.mine && clock.wake !== null && clock.ms < LOW_TIME_MS && !lowTimeSounded) {
        lowTimeSounded = true;
        play("lowtime");
      }
      if (clock.wake !== null) wake = Math.min(wake ?? Infinity, clock.wake);
    }
    if (wake !== null) ticker = setTimeout(tick, Math.max(16, wake + 1));
  }

  function renderSoundButton() {
    const on = soundOn();
    soundButton.textContent = on ? "♪ on" : "♪ off";
    soundButton.classList.toggle("off", !on);
    soundButton.title = on ? "Sound on (click to mute)" : "Sound off (click to turn on)";
  }

  return {
    gamenumber,
    get state() {
      return state;
    },
    flip,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      clearTimeout(ticker);
      for (const off of unsubscribe) off();
      unClick();
      boardBox.removeEventListener("contextmenu", cancelPremove);
      unSound();
      board.destroy();
      host.remove();
    },
  };
}
