// The game as the datagrams tell it: reduce(state, dgName, record, now) -> the next state
// (pure; records are the session's plain objects, fields named as in
// src/icswire/protocol/dgforms.py FORMS). Forms quoted from icc-formats.txt Appendix 2.
import { Chess } from "chess.js";
import { clockSide, remaining } from "./clock.js";
import { parseHolding } from "./holdings.js";
import { offersOf } from "./offers.js";
import { applySmith, fromBoard64, parseFen, toFen } from "./position.js";
import { variantOf } from "./variants.js";

const ROLE_OF_SYMBOL = { PW: "play", PB: "play", O: "observe", E: "examine" };

function player(name, rating, titles) {
  return { name: name || "", rating: Number(rating) || 0, titles: titles || "" };
}

/** The state a DG_MY_GAME_STARTED / DG_STARTED_OBSERVING / DG_ISOLATED_BOARD record
 * (DG 12's form) begins, for a view of ``role`` by ``me``. */
export function initialState(started, role, me, now = 0) {
  const variant = variantOf(started.wild_number);
  const white = player(started.whitename, started.white_rating, started.white_titles);
  const black = player(started.blackname, started.black_rating, started.black_titles);
  let mine = null;
  if (role === "play") mine = white.name === me ? "w" : black.name === me ? "b" : null;
  const start = parseFen("");
  return {
    gamenumber: started.gamenumber,
    role,
    mine,
    white,
    black,
    variant,
    rated: Boolean(started.rated),
    ratingType: started.rating_type || "",
    initial: [Number(started.white_initial) || 0, Number(started.black_initial) || 0],
    increment: [Number(started.white_increment) || 0, Number(started.black_increment) || 0],
    played: started.played_game !== false,
    start,
    plies: [],
    pos: start,
    clocks: {
      w: clockSide((Number(started.white_initial) || 0) * 60000, false, now),
      b: clockSide((Number(started.black_initial) || 0) * 60000, false, now),
    },
    holdings: variant.drops ? { w: parseHolding(""), b: parseHolding("") } : null,
    offers: [],
    result: null,
    gone: false,
    illegal: null,
  };
}

/** Whether the view's user may move now: a player on its turn, an examiner. */
export function canMove(state) {
  if (state.gone) return false;
  if (state.role === "examine") return true;
  return state.role === "play" && !state.result && state.mine === state.pos.turn;
}

/** Whether the user may make a premove now (a player waiting for the opponent). */
export function canPremove(state) {
  return state.role === "play" && !state.result && !state.gone && state.mine !== null && state.mine !== state.pos.turn;
}

function withPosition(state, pos) {
  const plies = state.plies.slice();
  if (plies.length) plies[plies.length - 1] = { ...plies[plies.length - 1], pos };
  return { ...state, plies, pos, start: plies.length ? state.start : pos };
}

/** ``pos`` after a move of DG_SEND_MOVES / DG_MOVE_LIST: by its SMITH (DG 34), else by its
 * SAN (DG 33) through chess.js; null if neither can be read. */
export function positionAfter(pos, move) {
  if (move.smith) {
    try {
      return applySmith(pos, move.smith);
    } catch {
      // fall through to SAN
    }
  }
  if (move.algebraic) {
    try {
      const chess = new Chess(toFen(pos), { skipValidation: true });
      chess.move(move.algebraic, { strict: false });
      return parseFen(chess.fen());
    } catch {
      return null;
    }
  }
  return null;
}

function addMove(state, move) {
  const after = positionAfter(state.pos, move) || { ...state.pos, turn: state.pos.turn === "w" ? "b" : "w" };
  const ply = {
    san: move.algebraic || move.smith || "?",
    smith: move.smith || "",
    time: move.time ?? null,
    clock: move.clock ?? null,
    by: state.pos.turn,
    pos: after,
  };
  // "Any move resets opponent's offers" (DG 21): the requests made to the mover go
  const offers = state.offers.filter((o) => o.by === state.pos.turn);
  return { ...state, plies: [...state.plies, ply], pos: after, offers };
}

function back(state, count) {
  const n = Math.max(0, state.plies.length - Math.max(0, Number(count) || 0));
  const plies = state.plies.slice(0, n);
  return { ...state, plies, pos: n ? plies[n - 1].pos : state.start, offers: [] };
}

const REDUCERS = {
  DG_MY_GAME_CHANGE(state, r) {
    return {
      ...state,
      white: player(r.whitename, r.white_rating, r.white_titles),
      black: player(r.blackname, r.black_rating, r.black_titles),
    };
  },
  DG_POSITION_BEGIN(state, r) {
    // (gamenumber {initial-FEN} nmoves-to-follow): the moves follow as DG_SEND_MOVES
    const start = parseFen(r.fen);
    return { ...state, start, plies: [], pos: start };
  },
  DG_MOVE_LIST(state, r) {
    // (gamenumber initial-position {move-info} ...): "*" or a 64-character board
    const start = r.initial_position && r.initial_position !== "*" ? fromBoard64(r.initial_position, "W") : parseFen("");
    let next = { ...state, start, plies: [], pos: start };
    for (const move of r.moves || []) next = addMove(next, move);
    return next;
  },
  DG_SEND_MOVES(state, r) {
    return addMove(state, r);
  },
  DG_BACKWARD(state, r) {
    return back(state, r.count);
  },
  DG_TAKEBACK(state, r) {
    return back(state, r.count);
  },
  DG_SET_BOARD(state, r) {
    // irregular semantics (atomic, Fischer random): the position after the move
    return withPosition(state, fromBoard64(r.board, r.side_to_move, state.pos));
  },
  DG_FEN(state, r) {
    const pos = parseFen(r.fen);
    return withPosition(state, pos);
  },
  DG_MSEC(state, r, now) {
    const color = r.color === "B" ? "b" : "w";
    return { ...state, clocks: { ...state.clocks, [color]: clockSide(Number(r.msec), Boolean(r.running), now) } };
  },
  DG_SET_CLOCK(state, r, now) {
    const { w, b } = state.clocks;
    return {
      ...state,
      clocks: {
        w: clockSide(Number(r.white_clock) * 1000, w.running, now),
        b: clockSide(Number(r.black_clock) * 1000, b.running, now),
      },
    };
  },
  DG_MORETIME(state, r, now) {
    const color = r.color === "B" ? "b" : "w";
    const side = state.clocks[color];
    const ms = remaining(side, now) + Number(r.seconds) * 1000;
    return { ...state, clocks: { ...state.clocks, [color]: clockSide(ms, side.running, now) } };
  },
  DG_BUGHOUSE_HOLDINGS(state, r) {
    return { ...state, holdings: { w: parseHolding(r.white_holding), b: parseHolding(r.black_holding) } };
  },
  DG_OFFERS_IN_MY_GAME(state, r) {
    return { ...state, offers: offersOf(r) };
  },
  DG_MY_GAME_RESULT(state, r, now) {
    // (gamenumber become-examined game_result_code score_string2 description-string ECO)
    const stop = (side) => clockSide(remaining(side, now), false, now);
    return {
      ...state,
      result: { code: r.result_code, score: r.score, description: r.description, examined: Boolean(r.become_examined) },
      clocks: { w: stop(state.clocks.w), b: stop(state.clocks.b) },
      offers: [],
      role: r.become_examined && state.role === "play" ? "examine" : state.role,
    };
  },
  DG_MY_RELATION_TO_GAME(state, r) {
    // (gamenumber symbol): PW PB O E, X "has left the table"
    if (r.symbol === "X") return { ...state, gone: true };
    const role = ROLE_OF_SYMBOL[r.symbol] || state.role;
    const mine = r.symbol === "PW" ? "w" : r.symbol === "PB" ? "b" : state.mine;
    return { ...state, role, mine };
  },
  DG_MY_GAME_ENDED(state) {
    return { ...state, gone: true };
  },
  DG_EXAMINED_GAME_IS_GONE(state) {
    return { ...state, gone: true };
  },
  DG_ILLEGAL_MOVE(state, r) {
    const count = state.illegal ? state.illegal.count + 1 : 1;
    return { ...state, illegal: { move: r.move, reason: r.reason, count } };
  },
};
REDUCERS.DG_GAME_RESULT = REDUCERS.DG_MY_GAME_RESULT;

/** The DG names the reducer reads. */
export const REDUCED_DGS = Object.keys(REDUCERS);

/** ``state`` after the datagram ``name`` with ``record`` (the same state if the record is
 * another game's, or a DG the game does not read). */
export function reduce(state, name, record, now = 0) {
  const reducer = REDUCERS[name];
  if (!reducer || !record || record.gamenumber !== state.gamenumber) return state;
  return reducer(state, record, now);
}
