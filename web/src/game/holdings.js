// Crazyhouse and bughouse holdings: DG_BUGHOUSE_HOLDINGS (37) "gamenumber {white-holding}
// {black-holding}" with holdings "such as PPNQ".

export const HELD_ORDER = ["P", "N", "B", "R", "Q"];

/** Counts by piece letter, e.g. "PPNQ" -> {P: 2, N: 1, B: 0, R: 0, Q: 1}. */
export function parseHolding(text) {
  const counts = Object.fromEntries(HELD_ORDER.map((p) => [p, 0]));
  for (const ch of (text || "").toUpperCase()) {
    if (ch in counts) counts[ch] += 1;
  }
  return counts;
}

/** The holdings panel of one side: a button per kind held, with its count; a click calls
 * ``onPick(letter)`` where ``pickable``. */
export function renderHolding(element, counts, color, { pickable, selected, onPick }) {
  element.replaceChildren();
  for (const letter of HELD_ORDER) {
    const n = counts[letter];
    if (!n) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "held" + (selected === letter ? " selected" : "");
    button.dataset.piece = letter;
    button.disabled = !pickable;
    button.title = `${n} ${letter} in hand`;
    const symbol = document.createElement("span");
    symbol.className = `held-piece ${color}${letter.toLowerCase()}`;
    symbol.textContent = PIECE_GLYPHS[color === "w" ? letter : letter.toLowerCase()];
    const count = document.createElement("span");
    count.className = "held-count";
    count.textContent = n > 1 ? String(n) : "";
    button.append(symbol, count);
    if (pickable) button.addEventListener("click", () => onPick(letter));
    element.append(button);
  }
}

const PIECE_GLYPHS = { P: "♙", N: "♘", B: "♗", R: "♖", Q: "♕", p: "♟", n: "♞", b: "♝", r: "♜", q: "♛" };
