// The game views of the web client (issue 25: play, watch, examine, replay).
//
// CSS: importing this module makes esbuild emit the game's stylesheet (game.css, which
// also brings cm-chessboard's markers and promotion-dialog styles) as static/main.css
// beside main.js; index.html must link it: <link rel="stylesheet" href="main.css">.
//
// Contract with the session (web/src/protocol/session.js): session.on(dgName, handler)
// -> unsubscribe, session.send(line), session.me. Create a game view on
// DG_MY_GAME_STARTED (role "play", or "examine" when its played_game is 0),
// DG_STARTED_OBSERVING ("observe") or DG_ISOLATED_BOARD ("observe"), passing that record as
// ``started``; it subscribes itself and reads only its own game's datagrams
// (DG_MY_RELATION_TO_GAME corrects the role; "X" leaves the view showing the end, for the
// page to destroy()). Moves go out by session.send in coordinates (e2e4, e7e8q, P@e4,
// O-O for a Fischer random king put on its rook); the premove is the view's own (one,
// shown on the board, sent when the opponent's move arrives; right click cancels), not
// the server's "iset premove". Hints are exact where chess.js knows the variant's rules,
// approximate elsewhere, where the server referees (see variants.js and legal.js).
import "./game.css";

export { createGameView } from "./view.js";
export { createReplayView } from "./replay.js";

/** The DGs the game views need on (icc-formats.txt Appendix 2 numbers): 15 MY_GAME_STARTED,
 * 16 MY_GAME_RESULT, 17 MY_GAME_ENDED, 18 STARTED_OBSERVING, 21 OFFERS_IN_MY_GAME,
 * 22 TAKEBACK, 23 BACKWARD, 24 SEND_MOVES with its parts 33 ALGEBRAIC (SAN), 34 SMITH,
 * 35 TIME, 36 CLOCK; 37 BUGHOUSE_HOLDINGS, 38 SET_CLOCK, 40 ISOLATED_BOARD, 42 ILLEGAL_MOVE,
 * 43 MY_RELATION_TO_GAME, 56 MSEC, 61 MORETIME, 70 FEN, 84 SET_BOARD (atomic, Fischer
 * random: 132 KNOWS_FISCHER_RANDOM stays off so the server sends it), 100 MY_GAME_CHANGE,
 * 101 POSITION_BEGIN (the moves so far follow as DG_SEND_MOVES). */
export const GAME_DGS = [15, 16, 17, 18, 21, 22, 23, 24, 33, 34, 35, 36, 37, 38, 40, 42, 43, 56, 61, 70, 84, 100, 101];
