// Reading spgn's PGN text for the replay view, and the names PGN files get.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parsePgn, pgnFileName } from "../src/history/pgn.js";

const PGN = `[Event "ICS unrated blitz match"]
[Site "icswire"]
[Date "2026.11.28"]
[White "GuestAB\\"CD"]
[Black "GuestWXYZ"]
[Result "0-1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]

1. f3 {[%emt 1.0]} e5 $1 2. g4 (2. e4 Nc6 (2... d5)) 2... Qh4# ; mate
{Black checkmates} 0-1
`;

test("tags, SAN moves without comments, variations, NAGs and numbers, and the result", () => {
  const { tags, moves, result } = parsePgn(PGN);
  assert.equal(tags.White, 'GuestAB"CD');
  assert.equal(tags.FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  assert.deepEqual(moves, ["f3", "e5", "g4", "Qh4#"]);
  assert.equal(result, "0-1");
});

test("a game without moves or a result tag is still read", () => {
  assert.deepEqual(parsePgn("*\n"), { tags: {}, moves: [], result: "*" });
});

test("a PGN file is named by its players and date, safely", () => {
  assert.equal(pgnFileName({ White: "a/b", Black: "c d", Date: "2026.11.28" }), "a_b-c_d-2026.11.28.pgn");
  assert.equal(pgnFileName({}), "white-black-game.pgn");
});
