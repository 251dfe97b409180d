import assert from "node:assert/strict";
import { test } from "node:test";
import { clockSide, formatClock, remaining, timeControl, untilChange } from "../src/game/clock.js";

test("a running clock counts down from when it was told, a stopped one does not", () => {
  assert.equal(remaining(clockSide(60000, true, 1000), 3500), 57500);
  assert.equal(remaining(clockSide(60000, false, 1000), 3500), 60000);
});

test("clock text: hours, minutes, tenths under ten seconds, never below zero", () => {
  assert.equal(formatClock(3723000), "1:02:03");
  assert.equal(formatClock(65000), "1:05");
  assert.equal(formatClock(10000), "0:10");
  assert.equal(formatClock(9999), "9.9");
  assert.equal(formatClock(420), "0.4");
  assert.equal(formatClock(-1200), "0.0");
});

test("the display changes at the next tenth or second", () => {
  assert.equal(untilChange(65300), 300);
  assert.equal(untilChange(9950), 50);
  assert.equal(untilChange(9900), 0); // "9.9" turns "9.8" at once
  assert.equal(untilChange(10000), 0); // "0:10" turns "9.9" at once
  assert.equal(untilChange(10250), 250);
});

test("time controls", () => {
  assert.equal(timeControl(5, 3), "5+3");
  assert.equal(timeControl(0, 0), "untimed");
});

test("an untimed game shows no clocks unless the server set some", async () => {
  const { untimed } = await import("../src/game/players.js");
  const clocks = (w, b) => ({ w: clockSide(w), b: clockSide(b) });
  assert.equal(untimed({ initial: [0, 0], increment: [0, 0], clocks: clocks(0, 0) }), true);
  assert.equal(untimed({ initial: [0, 0], increment: [0, 0], clocks: clocks(60000, 0) }), false);
  assert.equal(untimed({ initial: [0, 0], increment: [2, 2], clocks: clocks(0, 0) }), false);
});
