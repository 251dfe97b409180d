import assert from "node:assert/strict";
import { test } from "node:test";
import { moveSound } from "../src/game/sounds.js";
import { variantOf } from "../src/game/variants.js";

test("chess rules from any start are exact; drops, shuffled castling and kings en prise are not", () => {
  for (const wild of [0, 2, 3, 4, 5, 7, 8, 17, 25]) assert.equal(variantOf(wild).exact, true, `wild ${wild}`);
  for (const wild of [1, 22, 23, 24, 26, 27]) assert.equal(variantOf(wild).exact, false, `wild ${wild}`);
  assert.equal(variantOf(23).drops, true);
  assert.equal(variantOf(22).chess960, true);
  assert.equal(variantOf(undefined).name, "Chess");
  assert.equal(variantOf(99).name, "Wild 99");
});

test("a move's sound: check, capture (SAN x or SMITH's indicator), else a move", () => {
  assert.equal(moveSound("Qxf7#", "h5f7p"), "check");
  assert.equal(moveSound("exd6", "e5d6E"), "capture");
  assert.equal(moveSound(null, "e4d5p"), "capture"); // no SAN: SMITH's capture indicator
  assert.equal(moveSound("O-O", "e1g1c"), "move");
  assert.equal(moveSound("P@e4", "P@e4"), "move");
});
