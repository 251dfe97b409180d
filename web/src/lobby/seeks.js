// The seeks on the server now, from DG_SEEK (50) and DG_SEEK_REMOVED (51); turning
// DG_SEEK on at login sends every seek there is.
export function createSeekStore(session) {
  const seeks = new Map(); // index -> DG_SEEK record
  const listeners = new Set();
  const changed = () => {
    for (const listener of listeners) listener([...seeks.values()]);
  };
  session.on("DG_SEEK", (record) => {
    seeks.set(record.index, record);
    changed();
  });
  session.on("DG_SEEK_REMOVED", (record) => {
    if (seeks.delete(record.index)) changed();
  });
  return {
    subscribe(listener) {
      listeners.add(listener);
      listener([...seeks.values()]);
      return () => listeners.delete(listener);
    },
  };
}

/** Whose seek: the player's own ones are withdrawn, not answered. */
export function isMine(session, seek) {
  return seek.playername.toLowerCase() === session.me.toLowerCase();
}

/** The command a click on a seek sends: `play N`, or `unseek N` for one's own. */
export function seekCommand(session, seek) {
  return isMine(session, seek) ? `unseek ${seek.index}` : `play ${seek.index}`;
}

/** A seek's colour request in words (DG_SEEK: -1 either, 1 white, 0 black). */
export function colorText(color) {
  return color === 1 ? "white" : color === 0 ? "black" : "";
}
