// Reading the PGN text `spgn` sends: its tags and its moves in SAN (comments, variations,
// move numbers and NAGs left out), for the replay view.

/** {tags, moves, result} of one game's PGN text. */
export function parsePgn(text) {
  const tags = {};
  const movetext = [];
  for (const line of text.split(/\r?\n/)) {
    const tag = line.match(/^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$/);
    if (tag) tags[tag[1]] = tag[2].replace(/\\(.)/g, "$1");
    else if (!line.startsWith("%")) movetext.push(line);
  }
  let body = movetext.join(" ").replace(/\{[^}]*\}/g, " ").replace(/;[^\n]*/g, " ");
  while (/\([^()]*\)/.test(body)) body = body.replace(/\([^()]*\)/g, " ");
  const moves = [];
  let result = tags.Result ?? "*";
  for (const token of body.split(/\s+/)) {
    if (!token || /^\$\d+$/.test(token)) continue;
    if (/^(1-0|0-1|1\/2-1\/2|\*)$/.test(token)) {
      result = token;
      continue;
    }
    const move = token.replace(/^\d+\.+/, "");
    if (move) moves.push(move);
  }
  return { tags, moves, result };
}

/** A file name for a game's PGN: White-Black-date.pgn. */
export function pgnFileName(tags) {
  const safe = (text) => String(text ?? "").replace(/[^A-Za-z0-9_.-]+/g, "_");
  return `${safe(tags.White || "white")}-${safe(tags.Black || "black")}-${safe(tags.Date || "game")}.pgn`;
}
