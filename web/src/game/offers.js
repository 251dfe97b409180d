// Offers in a game: DG_OFFERS_IN_MY_GAME (21) "gamenumber wdraw bdraw wadjourn badjourn
// wabort babort wtakeback btakeback" (bits, and the number of half-moves asked back).
// The server's "accept KIND" and "decline KIND" answer one (help accept).

const KINDS = ["draw", "adjourn", "abort", "takeback"];

/** The offers standing, as [{kind, by: "w"|"b", count}]. */
export function offersOf(record) {
  const out = [];
  for (const kind of KINDS) {
    for (const color of ["w", "b"]) {
      const value = record[color + kind];
      if (value) out.push({ kind, by: color, count: typeof value === "number" ? value : 0 });
    }
  }
  return out;
}

/** What the bar says of an offer, from the point of view of ``mine`` ("w", "b" or null). */
export function offerText(offer, mine) {
  const who = offer.by === mine ? "You offer" : offer.by === "w" ? "White offers" : "Black offers";
  if (offer.kind === "takeback") return `${who} to take back ${offer.count} half-move${offer.count === 1 ? "" : "s"}`;
  return `${who} ${offer.kind === "draw" ? "a draw" : `to ${offer.kind}`}`;
}
