// One premove: a move made on the opponent's turn, kept (and shown) until the opponent
// has moved, then sent if it is still possible. The client keeps it rather than the
// server's ``iset premove 1`` so that it can be seen on the board and cancelled.

export function createPremove() {
  let queued = null;
  return {
    get move() {
      return queued;
    },
    set(move) {
      queued = { ...move };
    },
    clear() {
      queued = null;
    },
    /** The queued move if ``allowed(move)`` holds now (it is removed either way). */
    take(allowed) {
      const move = queued;
      queued = null;
      return move && allowed(move) ? move : null;
    },
  };
}
