// A position as plain data, and the moves the server sends applied to it.
// Squares are indexed as DG_SET_BOARD's and DG_MOVE_LIST's 64-character boards
// (icc-formats.txt, DG 25: "in lexigraphic order (a8 b8 ... h1)"): index 0 is a8, 63 is h1.
// Moves are read in SMITH (DG_MOVE_SMITH, 34): e2e4, e4d5p, e1g1c / e1c1C (the king's
// squares), e5d6E (en passant), f7f8Q, plunks Q@f7+. Explosions (atomic) and Fischer random
// castling are not worked out here: the server follows those moves with DG_SET_BOARD (84).

export const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const FILES = "abcdefgh";

export function squareIndex(square) {
  return (8 - Number(square[1])) * 8 + FILES.indexOf(square[0]);
}

export function indexSquare(index) {
  return FILES[index % 8] + String(8 - Math.floor(index / 8));
}

export function colorOf(piece) {
  return piece === piece.toUpperCase() ? "w" : "b";
}

/** A FEN (crazyhouse's "[...]" holdings and "~" marks and three-check's counters are
 * dropped; an empty
 * FEN is the standard start, as DG_POSITION_BEGIN allows) as a position object. */
export function parseFen(fen) {
  const text = (fen || "").trim() || START_FEN;
  // three-check's counters ("3+3" or "+0+0") are not FEN fields of ours
  const fields = text.split(/\s+/).filter((f, i) => i === 0 || !f.includes("+"));
  const [placementField, turn = "w", castling = "-", ep = "-", half = "0", full = "1"] = fields;
  const placement = placementField.replace(/\[.*\]$/, "");
  const board = [];
  const ranks = placement.split("/").slice(0, 8);
  for (const rank of ranks) {
    for (const ch of rank) {
      if (/\d/.test(ch)) for (let i = 0; i < Number(ch); i++) board.push("");
      else if (/[pnbrqk]/i.test(ch)) board.push(ch);
    }
  }
  while (board.length < 64) board.push("");
  board.length = 64;
  return {
    board,
    turn: turn === "b" ? "b" : "w",
    castling: /^[A-Ha-hKQkq]+$/.test(castling) ? castling : "-",
    ep: /^[a-h][36]$/.test(ep) ? ep : "-",
    halfmove: Number.parseInt(half, 10) || 0,
    fullmove: Number.parseInt(full, 10) || 1,
  };
}

/** The placement field of a FEN (what cm-chessboard's setPosition takes). */
export function placementOf(pos) {
  const ranks = [];
  for (let r = 0; r < 8; r++) {
    let out = "";
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const piece = pos.board[r * 8 + f];
      if (!piece) empty++;
      else {
        if (empty) out += empty;
        empty = 0;
        out += piece;
      }
    }
    if (empty) out += empty;
    ranks.push(out);
  }
  return ranks.join("/");
}

export function toFen(pos) {
  return [
    placementOf(pos),
    pos.turn,
    pos.castling || "-",
    pos.ep || "-",
    pos.halfmove,
    pos.fullmove,
  ].join(" ");
}

/** A position from a 64-character board ("-PNBRQKpnbrqk", a8 first) and the side to
 * move (DG_SET_BOARD, DG_MOVE_LIST's initial position); castling rights are kept from
 * ``previous`` where the king and rook are still at home. */
export function fromBoard64(board64, side, previous = null) {
  const board = [...board64.slice(0, 64)].map((c) => (c === "-" ? "" : c));
  const pos = {
    board,
    turn: side === "B" || side === "b" ? "b" : "w",
    castling: previous ? previous.castling : "KQkq",
    ep: "-",
    halfmove: previous ? previous.halfmove : 0,
    fullmove: previous ? previous.fullmove : 1,
  };
  pos.castling = prunedCastling(pos);
  return pos;
}

/** The castling rights of ``pos`` whose king and rook stand on chess's squares (the
 * only ones chess.js can play); Fischer random's file letters are kept. */
export function chessCastling(pos) {
  return prunedCastling(pos);
}

const CASTLING_HOMES = { K: ["e1", "h1", "K", "R"], Q: ["e1", "a1", "K", "R"], k: ["e8", "h8", "k", "r"], q: ["e8", "a8", "k", "r"] };

function prunedCastling(pos) {
  if (pos.castling === "-") return "-";
  let out = "";
  for (const right of pos.castling) {
    const home = CASTLING_HOMES[right];
    if (!home) {
      out += right; // Shredder/X-FEN file letters (Fischer random): the server referees
      continue;
    }
    const [king, rook, k, r] = home;
    if (pos.board[squareIndex(king)] === k && pos.board[squareIndex(rook)] === r) out += right;
  }
  return out || "-";
}

const SMITH = /^([a-h][1-8])([a-h][1-8])([pnbrqkEcC]?)([NBRQK]?)/;
const DROP = /^([PNBRQK])@([a-h][1-8])/;

/** Whether a SMITH move captures (its capture indicator) or is a plunk. */
export function smithParts(smith) {
  const drop = DROP.exec(smith || "");
  if (drop) return { drop: drop[1], to: drop[2] };
  const m = SMITH.exec(smith || "");
  if (!m) return null;
  return { from: m[1], to: m[2], indicator: m[3] || "", promotion: m[4] || "" };
}

/** ``pos`` after the SMITH move ``smith`` (a new object; ``pos`` is left as it is). */
export function applySmith(pos, smith) {
  const parts = smithParts(smith);
  if (!parts) throw new Error(`not a SMITH move: ${smith}`);
  const board = pos.board.slice();
  const white = pos.turn === "w";
  const next = { ...pos, board, turn: white ? "b" : "w", ep: "-" };
  next.fullmove = white ? pos.fullmove : pos.fullmove + 1;
  if (parts.drop) {
    board[squareIndex(parts.to)] = white ? parts.drop : parts.drop.toLowerCase();
    next.halfmove = 0;
    return next;
  }
  const from = squareIndex(parts.from);
  const to = squareIndex(parts.to);
  const piece = board[from];
  const { indicator, promotion } = parts;
  if (indicator === "c" || indicator === "C") {
    castle(board, from, to, piece, indicator === "c");
  } else {
    board[to] = piece;
    board[from] = "";
    if (indicator === "E") board[(from - (from % 8)) + (to % 8)] = "";
    if (promotion) board[to] = white ? promotion : promotion.toLowerCase();
  }
  const pawn = piece && piece.toLowerCase() === "p";
  if (pawn && Math.abs(to - from) === 16) next.ep = indexSquare((from + to) / 2);
  next.halfmove = pawn || (indicator && !"cC".includes(indicator)) ? 0 : pos.halfmove + 1;
  next.castling = castlingAfter(pos.castling, piece, parts.from, parts.to);
  return next;
}

/** Castling by the king's squares (SMITH's "c" short, "C" long): the rook is the
 * farthest own rook on the h side (short) or the a side (long) and lands beside the king,
 * on the f or d file in chess and Fischer random. */
function castle(board, from, to, king, short) {
  const rook = king === "K" ? "R" : "r";
  const rankStart = from - (from % 8);
  const dir = short ? 1 : -1;
  let rookAt = -1;
  for (let f = (from % 8) + dir; f >= 0 && f < 8; f += dir) {
    if (board[rankStart + f] === rook) rookAt = rankStart + f;
  }
  board[from] = "";
  if (rookAt >= 0) board[rookAt] = "";
  board[to] = king;
  board[to - dir] = rook;
}

function castlingAfter(castling, piece, from, to) {
  if (!castling || castling === "-") return "-";
  let out = castling;
  const drop = (letters) => {
    out = [...out].filter((c) => !letters.includes(c)).join("");
  };
  if (piece === "K") drop("KQABCDEFGH");
  if (piece === "k") drop("kqabcdefgh");
  for (const square of [from, to]) {
    if (square === "h1") drop("K");
    if (square === "a1") drop("Q");
    if (square === "h8") drop("k");
    if (square === "a8") drop("q");
  }
  return out || "-";
}

/** The square of the side's king, or null (giveaway may have none). */
export function kingSquare(pos, color) {
  const king = color === "w" ? "K" : "k";
  const index = pos.board.indexOf(king);
  return index < 0 ? null : indexSquare(index);
}
