// The variants a seek or a challenge can ask for, as the server's `seek`/`match` spell them.
export const VARIANTS = [
  { label: "Standard", words: "" },
  { label: "Chess960", words: "wild fr" },
  { label: "Crazyhouse", words: "crazyhouse" },
  { label: "Bughouse (with a partner)", words: "bughouse" },
  { label: "Suicide", words: "suicide" },
  { label: "Giveaway", words: "giveaway" },
  { label: "Losers", words: "losers" },
  { label: "Atomic", words: "atomic" },
  { label: "Three-check", words: "three-check" },
  ...["1", "2", "3", "4", "5", "8", "8a"].map((n) => ({ label: `Wild ${n}`, words: `wild ${n}` })),
];

/** The words of `seek`/`match` after the time control: rated, colour, variant. */
export function termWords({ rated = false, color = "", variant = "" }) {
  return [rated ? "rated" : "unrated", color, variant].filter(Boolean).join(" ");
}

/** What kind of game a DG_SEEK/DG_MATCH record asks for, in words. */
export function kindText(ratingType, wildNumber) {
  return wildNumber && ratingType === "Wild" ? `wild ${wildNumber}` : ratingType.toLowerCase();
}
