// Clock math. The server gives both clocks as DG_MSEC (56: "gamenumber color msec
// running", sent on each move, at the start and end, on a takeback) and the initial time in
// DG_MY_GAME_STARTED (minutes and seconds); between updates the running clock is counted
// down here from performance.now().

/** A clock side: ``ms`` left when last told, at local time ``at``, and whether it runs. */
export function clockSide(ms, running = false, at = 0) {
  return { ms, running, at };
}

/** Milliseconds left on ``side`` at local time ``now``. */
export function remaining(side, now) {
  if (!side) return 0;
  return side.running ? side.ms - Math.max(0, now - side.at) : side.ms;
}

/** "1:02:03", "4:05", or under ten seconds "9.4" (tenths), "0.0" at or below zero. */
export function formatClock(ms) {
  if (ms < 10000) {
    const tenths = Math.max(0, Math.floor(ms / 100));
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** How long until the display of ``ms`` changes as the clock runs down: it shows
 * floor(ms / unit) for a unit of a tenth under ten seconds, else a second, so it changes
 * just after ms % unit more milliseconds (a ticking display sleeps that long, and 1 ms). */
export function untilChange(ms) {
  return ms % (ms < 10000 ? 100 : 1000);
}

/** The time control as players say it: "5+3", "untimed" for 0+0. */
export function timeControl(minutes, increment) {
  if (!minutes && !increment) return "untimed";
  return `${minutes}+${increment}`;
}
