// What the board must know of each variant, by the wild number DG_MY_GAME_STARTED carries
// (icc-formats.txt DG 12; src/icswire/boards/variants.py: FICS's own variants travel as
// the nearest ICC number, suicide as 26, FICS atomic as 27, wild/0 as 1, wild/8a as 8).
//
// ``exact``: chess.js's moves are the variant's moves (chess rules from some start), so
// the board takes only those. Otherwise the hints are approximate and any move of one's
// own piece is sent; the server referees and DG_ILLEGAL_MOVE snaps the piece back:
// drops (crazyhouse, bughouse), castling from a shuffled back rank (wild 1, Fischer
// random), kings that may be left en prise or taken (giveaway, suicide, atomic).

const NAMES = {
  0: "Chess", 1: "Wild 1 (shuffle both)", 2: "Wild 2 (shuffle mirror)", 3: "Wild 3 (random pieces)",
  4: "Wild 4 (random, balanced bishops)", 5: "Wild 5 (upside down)", 7: "Wild 7 (three pawns and a king)",
  8: "Wild 8 (pawns on the fourth)", 17: "Losers", 22: "Fischer random", 23: "Crazyhouse",
  24: "Bughouse", 25: "Three-check", 26: "Giveaway", 27: "Atomic",
};

export function variantOf(wild) {
  const number = Number(wild) || 0;
  const drops = number === 23 || number === 24;
  const shuffledCastling = number === 1 || number === 22;
  const kingless = number === 26 || number === 27;
  return {
    wild: number,
    name: NAMES[number] || `Wild ${number}`,
    drops,
    chess960: number === 22,
    shuffledCastling,
    exact: !drops && !shuffledCastling && !kingless,
  };
}
