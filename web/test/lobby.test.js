// The lobby's words: what a click on a seek sends, and how seeks and challenges are asked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { colorText, isMine, seekCommand } from "../src/lobby/seeks.js";
import { VARIANTS, kindText, termWords } from "../src/lobby/variants.js";

const session = { me: "GuestABCD" };

test("a click plays another's seek and withdraws one's own", () => {
  assert.equal(seekCommand(session, { index: 7, playername: "fred" }), "play 7");
  assert.equal(seekCommand(session, { index: 3, playername: "guestabcd" }), "unseek 3");
  assert.ok(isMine(session, { playername: "GUESTABCD" }));
});

test("DG_SEEK's colour request and the kind of game in words", () => {
  assert.deepEqual([1, 0, -1].map(colorText), ["white", "black", ""]);
  assert.equal(kindText("Blitz", 0), "blitz");
  assert.equal(kindText("Wild", 5), "wild 5");
  assert.equal(kindText("Crazyhouse", 23), "crazyhouse");
});

test("seek and match terms as the server's seek command reads them", () => {
  assert.equal(termWords({}), "unrated");
  assert.equal(termWords({ rated: true, color: "white", variant: "wild fr" }), "rated white wild fr");
  assert.deepEqual(VARIANTS.map((v) => v.label).slice(0, 3), ["Standard", "Chess960", "Crazyhouse"]);
});
