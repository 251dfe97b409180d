import assert from "node:assert/strict";
import { test } from "node:test";
import { placementOf } from "../src/game/position.js";
import { canMove, canPremove, initialState, reduce } from "../src/game/state.js";

const STARTED = {
  gamenumber: 7, whitename: "alice", blackname: "bob", wild_number: 0, rating_type: "Blitz", rated: true,
  white_initial: 5, white_increment: 3, black_initial: 5, black_increment: 3, played_game: true,
  ex_string: "", white_rating: 1720, black_rating: 0, game_id: 1, white_titles: "", black_titles: "GM",
};
const mv = (algebraic, smith) => ({ gamenumber: 7, algebraic, smith, time: 0, clock: 300, variation: null });

function run(state, steps, now = 0) {
  return steps.reduce((s, [name, record]) => reduce(s, name, record, now), state);
}

test("the started record gives names, ratings, titles, my colour and the initial clocks", () => {
  const s = initialState(STARTED, "play", "bob", 0);
  assert.equal(s.mine, "b");
  assert.equal(s.black.titles, "GM");
  assert.equal(s.clocks.w.ms, 300000);
  assert.equal(canMove(s), false);
  assert.equal(canPremove(s), true);
});

test("DG_POSITION_BEGIN and the moves that follow; another game's moves are ignored", () => {
  const s = run(initialState(STARTED, "play", "alice"), [
    ["DG_POSITION_BEGIN", { gamenumber: 7, fen: "", nmoves: 2 }],
    ["DG_SEND_MOVES", mv("e4", "e2e4")],
    ["DG_SEND_MOVES", mv("c5", "c7c5")],
    ["DG_SEND_MOVES", { ...mv("d4", "d2d4"), gamenumber: 8 }],
  ]);
  assert.deepEqual(s.plies.map((p) => p.san), ["e4", "c5"]);
  assert.equal(placementOf(s.pos), "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR");
  assert.equal(canMove(s), true);
});

test("a move without SMITH is played from its SAN", () => {
  const s = reduce(initialState(STARTED, "observe", "x"), "DG_SEND_MOVES", mv("Nf3", null));
  assert.equal(s.pos.board[45], "N");
});

test("takeback and backward remove plies", () => {
  let s = run(initialState(STARTED, "examine", "alice"), [
    ["DG_SEND_MOVES", mv("e4", "e2e4")],
    ["DG_SEND_MOVES", mv("e5", "e7e5")],
    ["DG_SEND_MOVES", mv("Nf3", "g1f3")],
  ]);
  s = reduce(s, "DG_TAKEBACK", { gamenumber: 7, count: 1 });
  assert.equal(s.plies.length, 2);
  s = reduce(s, "DG_BACKWARD", { gamenumber: 7, count: 5 });
  assert.equal(s.plies.length, 0);
  assert.equal(s.pos.turn, "w");
});

test("DG_MSEC sets one clock with its running flag, at the time it came", () => {
  const s = reduce(initialState(STARTED, "play", "alice"), "DG_MSEC", { gamenumber: 7, color: "B", msec: 12345, running: true }, 500);
  assert.deepEqual(s.clocks.b, { ms: 12345, running: true, at: 500 });
});

test("DG_SET_BOARD replaces the position after an atomic capture", () => {
  let s = reduce(initialState({ ...STARTED, wild_number: 27 }, "observe", "x"), "DG_SEND_MOVES", mv("e4", "e2e4"));
  const board64 = "rnbqkbnr" + "pppppppp" + "-".repeat(32) + "PPPP-PPP" + "RNBQKBNR";
  s = reduce(s, "DG_SET_BOARD", { gamenumber: 7, board: board64, side_to_move: "B" });
  assert.equal(placementOf(s.plies[0].pos), "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR");
  assert.equal(s.pos.turn, "b");
});

test("offers: shown from DG 21, the opponent's dropped by my move", () => {
  let s = reduce(initialState(STARTED, "play", "alice"), "DG_OFFERS_IN_MY_GAME", {
    gamenumber: 7, wdraw: true, bdraw: true, wadjourn: false, badjourn: false, wabort: false, babort: false, wtakeback: 0, btakeback: 0,
  });
  assert.equal(s.offers.length, 2);
  s = reduce(s, "DG_SEND_MOVES", mv("e4", "e2e4"));
  assert.deepEqual(s.offers, [{ kind: "draw", by: "w", count: 0 }]);
});

test("the result stops the clocks and the input", () => {
  let s = reduce(initialState(STARTED, "play", "alice"), "DG_MSEC", { gamenumber: 7, color: "W", msec: 10000, running: true }, 0);
  s = reduce(s, "DG_MY_GAME_RESULT", { gamenumber: 7, become_examined: false, result_code: "Mat", score: "0-1", description: "White checkmated", eco: "?" }, 4000);
  assert.deepEqual(s.clocks.w, { ms: 6000, running: false, at: 4000 });
  assert.equal(s.result.score, "0-1");
  assert.equal(canMove(s), false);
  assert.equal(canPremove(s), false);
});

test("holdings, illegal moves and the relation to the game", () => {
  let s = initialState({ ...STARTED, wild_number: 23 }, "play", "alice");
  s = reduce(s, "DG_BUGHOUSE_HOLDINGS", { gamenumber: 7, white_holding: "PN", black_holding: "" });
  assert.equal(s.holdings.w.N, 1);
  s = reduce(s, "DG_ILLEGAL_MOVE", { gamenumber: 7, move: "P@e8", reason: 7 });
  s = reduce(s, "DG_ILLEGAL_MOVE", { gamenumber: 7, move: "P@e8", reason: 7 });
  assert.equal(s.illegal.count, 2);
  s = reduce(s, "DG_MY_RELATION_TO_GAME", { gamenumber: 7, symbol: "X" });
  assert.equal(s.gone, true);
  assert.equal(canMove(s), false);
});

test("DG_MOVE_LIST from a 64-character initial position", () => {
  const s = reduce(initialState(STARTED, "observe", "x"), "DG_MOVE_LIST", {
    gamenumber: 7,
    initial_position: "rnbqkbnr" + "pppppppp" + "-".repeat(32) + "PPPPPPPP" + "RNBQKBNR",
    moves: [{ algebraic: "d4", smith: "d2d4", time: null, clock: null, variation: null }],
  });
  assert.equal(s.plies.length, 1);
  assert.equal(s.pos.turn, "b");
});
