import assert from "node:assert/strict";
import { test } from "node:test";
import { parseHolding } from "../src/game/holdings.js";
import { offerText, offersOf } from "../src/game/offers.js";

test("holdings count each piece letter", () => {
  assert.deepEqual(parseHolding("PPNQ"), { P: 2, N: 1, B: 0, R: 0, Q: 1 });
  assert.deepEqual(parseHolding(""), { P: 0, N: 0, B: 0, R: 0, Q: 0 });
});

test("DG_OFFERS_IN_MY_GAME as offers, and their words", () => {
  const offers = offersOf({ gamenumber: 3, wdraw: false, bdraw: true, wadjourn: false, badjourn: false, wabort: true, babort: false, wtakeback: 0, btakeback: 2 });
  assert.deepEqual(offers, [
    { kind: "draw", by: "b", count: 0 },
    { kind: "abort", by: "w", count: 0 },
    { kind: "takeback", by: "b", count: 2 },
  ]);
  assert.equal(offerText(offers[0], "w"), "Black offers a draw");
  assert.equal(offerText(offers[1], "w"), "You offer to abort");
  assert.equal(offerText(offers[2], null), "Black offers to take back 2 half-moves");
});
