// Legal-move hints and the text a move is sent as.
// Hints come from chess.js where it knows the rules (variants.js ``exact``); elsewhere they
// are approximate (chess.js's moves where it can load the position, plus drops on empty
// squares and castling onto one's own rook) and the server referees.
// Moves go out as the server reads them (src/icswire/boards/moves.py move_from_wire):
// coordinates e2e4, promotions e7e8q, plunks P@e4, and "O-O"/"O-O-O" for a king put on its
// own rook (Fischer random's way to castle); a king moved two squares or more in a wild is
// also castling there ("If your king is moving two squares or more ... you intend to castle").
import { Chess } from "chess.js";
import { chessCastling, colorOf, indexSquare, squareIndex, toFen } from "./position.js";

/** chess.js on ``pos``, or null where it refuses the position. Castling rights it cannot
 * read (Fischer random's file letters) are left out. */
export function chessOf(pos, variant) {
  const castling = variant.shuffledCastling ? "-" : chessCastling(pos).replace(/[^KQkq]/g, "") || "-";
  try {
    return new Chess(toFen({ ...pos, castling }), { skipValidation: true });
  } catch {
    return null;
  }
}

export function isPromotion(pos, from, to) {
  const piece = pos.board[squareIndex(from)];
  return (piece === "P" && to[1] === "8") || (piece === "p" && to[1] === "1");
}

/** The squares the piece on ``from`` may go to, as far as the board knows. */
export function targets(pos, from, variant) {
  const piece = pos.board[squareIndex(from)];
  if (!piece || colorOf(piece) !== pos.turn) return [];
  const found = new Set();
  const chess = chessOf(pos, variant);
  if (chess) {
    try {
      for (const m of chess.moves({ square: from, verbose: true })) found.add(m.to);
    } catch {
      // a position chess.js cannot generate moves in: no hints from it
    }
  }
  if (!variant.exact && piece.toLowerCase() === "k" && variant.shuffledCastling) {
    const rank = from[1];
    if ((piece === "K" && rank === "1") || (piece === "k" && rank === "8")) {
      const rook = piece === "K" ? "R" : "r";
      for (const f of "abcdefgh") {
        if (pos.board[squareIndex(f + rank)] === rook) found.add(f + rank);
      }
    }
  }
  return [...found];
}

/** Empty squares a held piece may be put on (pawns not on the first or last rank). */
export function dropTargets(pos, letter) {
  const out = [];
  pos.board.forEach((piece, index) => {
    const square = indexSquare(index);
    if (piece) return;
    if (letter.toUpperCase() === "P" && (square[1] === "1" || square[1] === "8")) return;
    out.push(square);
  });
  return out;
}

/** Whether the board lets the move go to the server: in an exact variant only chess.js's
 * moves; elsewhere any move of one's own piece that does not take one's own piece, except a
 * king onto its own rook in a shuffled-castling variant. */
export function mayMove(pos, from, to, variant) {
  const piece = pos.board[squareIndex(from)];
  if (!piece || colorOf(piece) !== pos.turn || from === to) return false;
  if (variant.exact && chessOf(pos, variant)) return targets(pos, from, variant).includes(to);
  const target = pos.board[squareIndex(to)];
  if (target && colorOf(target) === colorOf(piece)) return castlingOntoRook(pos, from, to, variant) !== null;
  return true;
}

/** "O-O" or "O-O-O" for a king put on its own rook where castling is shuffled, else null. */
export function castlingOntoRook(pos, from, to, variant) {
  if (!variant.shuffledCastling) return null;
  const piece = pos.board[squareIndex(from)];
  const target = pos.board[squareIndex(to)];
  if (!piece || piece.toLowerCase() !== "k" || !target) return null;
  if (target !== (piece === "K" ? "R" : "r")) return null;
  return to[0] > from[0] ? "O-O" : "O-O-O";
}

/** The text a move is sent as (see the module's note). ``move``: {from, to, promotion} or
 * {drop: "P", to}. */
export function encodeMove(pos, move, variant) {
  if (move.drop) return `${move.drop.toUpperCase()}@${move.to}`;
  const castling = castlingOntoRook(pos, move.from, move.to, variant);
  if (castling) return castling;
  return move.from + move.to + (move.promotion ? move.promotion.toLowerCase() : "");
}
