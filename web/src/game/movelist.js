// The move list: numbered pairs, each move a button that shows the position after it.

/** Rows of the list: [{number, white: plyIndex|null, black: plyIndex|null}] for plies
 * that began with ``firstTurn`` to move at move ``firstNumber``. */
export function moveRows(count, firstTurn = "w", firstNumber = 1) {
  const rows = [];
  let number = firstNumber;
  let i = 0;
  if (firstTurn === "b" && count > 0) {
    rows.push({ number, white: null, black: 0 });
    number += 1;
    i = 1;
  }
  for (; i < count; i += 2) {
    rows.push({ number, white: i, black: i + 1 < count ? i + 1 : null });
    number += 1;
  }
  return rows;
}

/** Draw the list of ``sans`` into ``element``; ``current`` is the ply shown (-1 the start),
 * ``onPick(ply)`` is called on a click. */
export function renderMoveList(element, sans, { firstTurn, firstNumber, current, onPick }) {
  element.replaceChildren();
  for (const row of moveRows(sans.length, firstTurn, firstNumber)) {
    const number = document.createElement("span");
    number.className = "mv-number";
    number.textContent = `${row.number}.`;
    element.append(number, cell(row.white, row.black === 0 ? "…" : ""), cell(row.black, ""));
  }
  function cell(ply, filler) {
    if (ply === null) {
      const span = document.createElement("span");
      span.className = "mv-empty";
      span.textContent = filler;
      return span;
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "mv" + (ply === current ? " current" : "");
    button.dataset.ply = String(ply);
    button.textContent = sans[ply];
    button.addEventListener("click", () => onPick(ply));
    return button;
  }
  const shown = element.querySelector(".mv.current");
  if (shown) element.scrollTop = Math.max(0, shown.offsetTop - element.clientHeight / 2); // the list alone scrolls
}
