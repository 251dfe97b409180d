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
 * ``onPick(ply)`` is called on a click; ``notes[ply]``, if given, is a move's tooltip. */
export function renderMoveList(element, sans, { firstTurn, firstNumber, current, onPick, notes = [] }) {
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
    if (notes[ply]) button.title = notes[ply];
    button.addEventListener("click", () => onPick(ply));
    return button;
  }
  const shown = element.querySelector(".mv.current");
  if (shown) element.scrollTop = Math.max(0, shown.offsetTop - element.clientHeight / 2); // the list alone scrolls
}

/** A move's tooltip from DG_MOVE_TIME and DG_MOVE_CLOCK (35, 36: seconds used, and left
 * after the increment): "12 s, 4:51 left"; empty when neither came. */
export function moveNote(time, clock) {
  const parts = [];
  if (time !== null && time !== undefined) parts.push(`${time} s`);
  if (clock !== null && clock !== undefined) parts.push(`${Math.floor(clock / 60)}:${String(clock % 60).padStart(2, "0")} left`);
  return parts.join(", ");
}
