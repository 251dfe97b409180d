// A game's line from SAN, for replays (history, stored games, PGN): each position and the
// squares of the move that led to it. chess.js plays the moves; plunks (P@e4) and Fischer
// random castling (O-O with the king and rook anywhere on the back rank) are played here.
import { Chess } from "chess.js";
import { applySmith, chessCastling, kingSquare, parseFen, toFen } from "./position.js";

/** [{san, from, to, pos}] after each of ``sans`` from ``initialFen`` (empty: the standard
 * start); the line stops at the first move that cannot be played. */
export function playLine(initialFen, sans) {
  let pos = parseFen(initialFen || "");
  const out = [];
  for (const san of sans) {
    const step = playSan(pos, san);
    if (!step) break;
    out.push({ san, ...step });
    pos = step.pos;
  }
  return out;
}

function playSan(pos, san) {
  const drop = /^([PNBRQK])@([a-h][1-8])/.exec(san);
  if (drop) return { from: null, to: drop[2], pos: applySmith(pos, san) };
  const castling = /^[O0]-[O0](-[O0])?/.exec(san);
  const rights = chessCastling(pos).replace(/[^KQkq]/g, "");
  if (castling && !rights.includes(castlingRight(pos.turn, !castling[1]))) return castling960(pos, san);
  try {
    const chess = new Chess(toFen({ ...pos, castling: rights || "-" }), { skipValidation: true });
    const move = chess.move(san, { strict: false });
    return { from: move.from, to: move.to, pos: parseFen(chess.fen()) };
  } catch {
    return castling960(pos, san);
  }
}

function castlingRight(turn, short) {
  const letter = short ? "k" : "q";
  return turn === "w" ? letter.toUpperCase() : letter;
}

/** Castling where the king or rook is not on chess's squares (Fischer random): the king
 * to the g or c file, the rook beside it. */
function castling960(pos, san) {
  const m = /^[O0]-[O0](-[O0])?/.exec(san);
  const king = m && kingSquare(pos, pos.turn);
  if (!king) return null;
  const short = !m[1];
  const to = (short ? "g" : "c") + king[1];
  return { from: king, to, pos: applySmith(pos, `${king}${to}${short ? "c" : "C"}`) };
}
