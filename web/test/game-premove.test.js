import assert from "node:assert/strict";
import { test } from "node:test";
import { createPremove } from "../src/game/premove.js";

test("one premove is kept, the last one set", () => {
  const q = createPremove();
  q.set({ from: "e2", to: "e4" });
  q.set({ from: "d2", to: "d4" });
  assert.deepEqual(q.move, { from: "d2", to: "d4" });
});

test("taking the premove gives it when allowed and empties the queue either way", () => {
  const q = createPremove();
  q.set({ from: "e2", to: "e4" });
  assert.deepEqual(q.take(() => true), { from: "e2", to: "e4" });
  assert.equal(q.move, null);
  q.set({ from: "e2", to: "e5" });
  assert.equal(q.take(() => false), null);
  assert.equal(q.move, null);
  assert.equal(q.take(() => true), null);
});
