import assert from "node:assert/strict";
import { test } from "node:test";
import { dropTargets, encodeMove, isPromotion, mayMove, targets } from "../src/game/legal.js";
import { parseFen } from "../src/game/position.js";
import { variantOf } from "../src/game/variants.js";

const CHESS = variantOf(0);
const FR = variantOf(22);
const ZH = variantOf(23);

test("chess hints are chess.js's moves", () => {
  assert.deepEqual(targets(parseFen(""), "g1", CHESS).sort(), ["f3", "h3"]);
  assert.deepEqual(targets(parseFen(""), "e7", CHESS), []); // not the side to move
});

test("in chess only legal moves go out; elsewhere the server referees", () => {
  const start = parseFen("");
  assert.equal(mayMove(start, "e2", "e5", CHESS), false);
  assert.equal(mayMove(start, "e2", "e4", CHESS), true);
  assert.equal(mayMove(start, "e2", "e5", ZH), true);
  assert.equal(mayMove(start, "e1", "d1", ZH), false); // onto one's own piece
});

test("moves are sent as coordinates, promotions with the piece, plunks as P@e4", () => {
  const pos = parseFen("8/4P3/8/8/8/8/8/k6K w - - 0 1");
  assert.equal(isPromotion(pos, "e7", "e8"), true);
  assert.equal(encodeMove(pos, { from: "e7", to: "e8", promotion: "n" }, CHESS), "e7e8n");
  assert.equal(encodeMove(parseFen(""), { from: "e2", to: "e4" }, CHESS), "e2e4");
  assert.equal(encodeMove(parseFen(""), { drop: "p", to: "e4" }, ZH), "P@e4");
});

test("Fischer random: a king put on its own rook castles, and the rook is a hint", () => {
  const pos = parseFen("1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w KQkq - 0 1");
  assert.equal(mayMove(pos, "c1", "g1", FR), true);
  assert.equal(encodeMove(pos, { from: "c1", to: "g1" }, FR), "O-O");
  assert.equal(encodeMove(pos, { from: "c1", to: "b1" }, FR), "O-O-O");
  assert.ok(targets(pos, "c1", FR).includes("g1"));
  assert.equal(mayMove(pos, "b1", "c1", FR), false); // a rook onto its king is no move
});

test("drops go on empty squares, pawns not on the first or last rank", () => {
  const pos = parseFen("");
  const pawn = dropTargets(pos, "P");
  assert.equal(pawn.length, 32);
  assert.ok(!pawn.some((s) => s.endsWith("8") || s.endsWith("1")));
  const knight = dropTargets(parseFen("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "N");
  assert.equal(knight.length, 62);
});
