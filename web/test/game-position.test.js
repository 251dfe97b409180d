import assert from "node:assert/strict";
import { test } from "node:test";
import { START_FEN, applySmith, fromBoard64, parseFen, placementOf, toFen } from "../src/game/position.js";

const play = (fen, ...moves) => moves.reduce((pos, m) => applySmith(pos, m), parseFen(fen));

test("an empty FEN is the standard start and comes back as it was", () => {
  assert.equal(toFen(parseFen("")), START_FEN);
});

test("crazyhouse holdings and three-check counters are left out of the placement", () => {
  const pos = parseFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pn] w KQkq - 0 1 +0+0");
  assert.equal(placementOf(pos), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
});

test("three-check's counters in either place leave the move numbers alone", () => {
  assert.equal(parseFen("8/8/8/8/8/8/8/K6k b - - 3+2 4 31").fullmove, 31);
  assert.equal(parseFen("8/8/8/8/8/8/8/K6k b - - 4 31 +1+0").halfmove, 4);
  assert.equal(placementOf(parseFen("4k3/8/8/8/8/8/8/3Q~K3[] w - - 0 1")), "4k3/8/8/8/8/8/8/3QK3");
});

test("a double push sets the en passant square, the reply takes it with E", () => {
  const pos = play("", "e2e4", "a7a6", "e4e5", "d7d5");
  assert.equal(pos.ep, "d6");
  const after = applySmith(pos, "e5d6E");
  assert.equal(placementOf(after), "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR");
  assert.equal(after.halfmove, 0);
});

test("castling moves the rook beside the king and drops the rights", () => {
  const pos = play("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1c", "e8c8C");
  assert.equal(placementOf(pos), "2kr3r/8/8/8/8/8/8/R4RK1");
  assert.equal(pos.castling, "-");
  assert.equal(pos.fullmove, 2);
});

test("Fischer random castling short with the king on g1 already", () => {
  const pos = play("1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1", "g1g1c");
  assert.equal(placementOf(pos).split("/")[7], "1R3RK1");
});

test("a rook leaving its corner loses that castling right only", () => {
  assert.equal(play("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "h1h5").castling, "Qkq");
});

test("promotion and plunks by the side to move", () => {
  const pos = play("8/4P3/8/8/8/8/8/k6K w - - 0 1", "e7e8N");
  assert.equal(placementOf(pos), "4N3/8/8/8/8/8/8/k6K");
  const drop = applySmith(pos, "P@d5");
  assert.equal(drop.board[27], "p");
  assert.equal(drop.turn, "w");
});

test("DG_SET_BOARD's 64 characters, castling rights kept only where pieces are home", () => {
  const board64 = "r---k--r" + "-".repeat(48) + "----K--R";
  const pos = fromBoard64(board64, "B", parseFen(""));
  assert.equal(placementOf(pos), "r3k2r/8/8/8/8/8/8/4K2R");
  assert.equal(pos.turn, "b");
  assert.equal(pos.castling, "Kkq");
});
