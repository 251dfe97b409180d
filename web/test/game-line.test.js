import assert from "node:assert/strict";
import { test } from "node:test";
import { playLine } from "../src/game/line.js";
import { moveNote, moveRows } from "../src/game/movelist.js";
import { placementOf } from "../src/game/position.js";

test("a line from SAN, with the squares of each move", () => {
  const line = playLine("", ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]);
  assert.equal(line.length, 7);
  assert.deepEqual([line[6].from, line[6].to], ["h5", "f7"]);
});

test("a line stops at a move that cannot be played", () => {
  assert.equal(playLine("", ["e4", "e4"]).length, 1);
});

test("plunks and Fischer random castling are played", () => {
  const zh = playLine("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", ["e4", "d5", "exd5", "Qxd5", "P@e4"]);
  assert.equal(zh.length, 5);
  assert.equal(zh[4].to, "e4");
  const fr = playLine("1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w KQkq - 0 1", ["O-O"]);
  assert.equal(placementOf(fr[0].pos).split("/")[7], "1R3RK1");
});

test("move list rows, a game that starts with Black to move", () => {
  assert.deepEqual(moveRows(3), [
    { number: 1, white: 0, black: 1 },
    { number: 2, white: 2, black: null },
  ]);
  assert.deepEqual(moveRows(2, "b", 10), [
    { number: 10, white: null, black: 0 },
    { number: 11, white: 1, black: null },
  ]);
});

test("a move's tooltip from its time and clock", () => {
  assert.equal(moveNote(12, 291), "12 s, 4:51 left");
  assert.equal(moveNote(null, null), "");
  assert.equal(moveNote(0, null), "0 s");
});
