// A fake session for the game view: window.harness.dg(name, record) delivers a datagram,
// window.harness.sent lists the lines the view sent. ?scenario=NAME starts a canned game.
import { GAME_DGS, createGameView, createReplayView } from "../../src/game/index.js";

const handlers = new Map();
const sent = [];
const session = {
  me: new URLSearchParams(location.search).get("me") || "alice",
  on(name, handler) {
    if (!handlers.has(name)) handlers.set(name, new Set());
    handlers.get(name).add(handler);
    return () => handlers.get(name).delete(handler);
  },
  send(line) {
    sent.push(line);
    document.getElementById("sent").textContent = sent.join("\n");
  },
};

function dg(name, record) {
  for (const handler of handlers.get(name) || []) handler(record);
}

const game = (n, white, black, extra = {}) => ({
  gamenumber: n, whitename: white, blackname: black, wild_number: 0, rating_type: "Blitz", rated: true,
  white_initial: 5, white_increment: 3, black_initial: 5, black_increment: 3, played_game: true,
  ex_string: "", white_rating: 1720, black_rating: 1655, game_id: 1, white_titles: "", black_titles: "GM", ...extra,
});

const move = (n, algebraic, smith, clock = 300) => ({ gamenumber: n, algebraic, smith, time: 1, clock, variation: null });

const scenarios = {
  play() {
    const started = game(7, "alice", "bob");
    const view = createGameView(document.getElementById("game"), session, { gamenumber: 7, role: "play", started });
    dg("DG_POSITION_BEGIN", { gamenumber: 7, fen: "", nmoves: 0 });
    for (const [san, smith] of [["e4", "e2e4"], ["e5", "e7e5"], ["Nf3", "g1f3"], ["Nc6", "b8c6"], ["Bc4", "f1c4"], ["Nf6", "g8f6"]]) dg("DG_SEND_MOVES", move(7, san, smith));
    dg("DG_MSEC", { gamenumber: 7, color: "W", msec: 287400, running: true });
    dg("DG_MSEC", { gamenumber: 7, color: "B", msec: 9300, running: false });
    dg("DG_OFFERS_IN_MY_GAME", { gamenumber: 7, wdraw: false, bdraw: true, wadjourn: false, badjourn: false, wabort: false, babort: false, wtakeback: 0, btakeback: 0 });
    return view;
  },
  crazyhouse() {
    const started = game(9, "alice", "bob", { wild_number: 23, rating_type: "Crazyhouse" });
    const view = createGameView(document.getElementById("game"), session, { gamenumber: 9, role: "play", started });
    dg("DG_POSITION_BEGIN", { gamenumber: 9, fen: "", nmoves: 0 });
    for (const [san, smith] of [["e4", "e2e4"], ["d5", "d7d5"], ["exd5", "e4d5p"], ["Qxd5", "d8d5p"]]) dg("DG_SEND_MOVES", move(9, san, smith));
    dg("DG_BUGHOUSE_HOLDINGS", { gamenumber: 9, white_holding: "P", black_holding: "P" });
    dg("DG_MSEC", { gamenumber: 9, color: "W", msec: 281000, running: true });
    dg("DG_MSEC", { gamenumber: 9, color: "B", msec: 290000, running: false });
    return view;
  },
  observe() {
    const started = game(4, "carol", "dave", { white_titles: "IM" });
    const view = createGameView(document.getElementById("game"), session, { gamenumber: 4, role: "observe", started });
    dg("DG_POSITION_BEGIN", { gamenumber: 4, fen: "", nmoves: 3 });
    for (const [san, smith] of [["d4", "d2d4"], ["Nf6", "g8f6"], ["c4", "c2c4"]]) dg("DG_SEND_MOVES", move(4, san, smith));
    dg("DG_MY_GAME_RESULT", { gamenumber: 4, become_examined: false, result_code: "Res", score: "1-0", description: "Black resigns", eco: "A45" });
    return view;
  },
  replay() {
    return createReplayView(document.getElementById("game"), { moves: ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"], white: "alice", black: "bob", result: "1-0 Black checkmated" });
  },
};

const name = new URLSearchParams(location.search).get("scenario");
window.harness = { dg, sent, session, GAME_DGS, createGameView, createReplayView, view: name && scenarios[name] ? scenarios[name]() : null };
