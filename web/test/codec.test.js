// The JavaScript codec against what the Python encoder writes and its decoder reads
// (fixtures/codec.json: `python -m tests.web.js_fixtures`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DatagramDecoder, settingsBits, splitFields } from "../src/protocol/level2.js";
import { FrameSplitter } from "../src/protocol/stream.js";

const fixtures = JSON.parse(readFileSync(new URL("./fixtures/codec.json", import.meta.url), "utf-8"));

test("every datagram decodes to the record the Python decoder reads", () => {
  for (const { enabled, body, record } of fixtures.datagrams) {
    const decoder = new DatagramDecoder(fixtures.table, enabled);
    const decoded = decoder.decode(body);
    assert.deepEqual(decoded.record, record, JSON.stringify(body));
    assert.equal(decoded.dg, record.dg);
  }
});

test("datagram names map to their numbers", () => {
  const decoder = new DatagramDecoder(fixtures.table);
  assert.equal(decoder.number("DG_SEND_MOVES"), 24);
  assert.equal(decoder.decode("24 7").name, "DG_SEND_MOVES");
  assert.throws(() => decoder.number("DG_NO_SUCH"));
});

test("a field that is not of its kind is an error naming it", () => {
  const decoder = new DatagramDecoder(fixtures.table);
  assert.throws(() => decoder.decode("56 seven W 1 1"), /gamenumber/);
  assert.throws(() => decoder.decode("56 7 W 1 2"), /running/);
  assert.throws(() => decoder.decode("56 7 W"), /msec/);
});

test("quoted fields keep blanks and braces; stray braces are refused", () => {
  assert.deepEqual(splitFields("31 fred {} \x19{hi {there}\x19} 1").values, ["31", "fred", "", "hi {there}", "1"]);
  assert.deepEqual(splitFields("25 1 *  {e4}{e5}").values, ["25", "1", "*", "e4", "e5"]);
  assert.throws(() => splitFields("31 fr}ed"));
});

test("the settings bits turn on exactly the DGs asked", () => {
  assert.equal(settingsBits([0, 3, 5]), "100101");
});

function frames(chunks) {
  const splitter = new FrameSplitter();
  return chunks.flatMap((chunk) => splitter.feed(Uint8Array.from(chunk)));
}

test("a session's bytes split into the frames the Python decoder finds", () => {
  const { bytes, frames: expected } = fixtures.stream;
  assert.deepEqual(frames([bytes]), expected);
});

test("the same bytes cut anywhere give the same frames", () => {
  const { bytes, frames: expected } = fixtures.stream;
  assert.deepEqual(frames(bytes.map((b) => [b])), expected);
  for (let cut = 1; cut < bytes.length; cut += 7) {
    assert.deepEqual(frames([bytes.slice(0, cut), bytes.slice(cut)]), expected, `cut at ${cut}`);
  }
});
