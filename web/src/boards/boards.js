// The board area: a tab per game being played, watched or examined (the game module's
// view, opened when DG_MY_GAME_STARTED or DG_STARTED_OBSERVING comes) and per replayed
// game. A finished game's board stays, with its result, until it is closed.
import { h } from "../ui/dom.js";
import { createTabs } from "../ui/tabs.js";

/** Bughouse's wild number (DG_MY_GAME_STARTED's wild_number). */
const BUGHOUSE = 24;

/** `game`: the game module ({createGameView, createReplayView}); `shown()` is called when
 * a board opens (the page brings it into view). */
export function createBoards(container, session, game, { shown }) {
  const empty = h("p.boards-empty", {}, "No game yet. Click a seek on the graph, post one, or watch a game.");
  const tabs = createTabs(container, { className: "board-tabs" });
  container.append(empty);
  const views = new Map(); // tab id -> {destroy()}
  let replays = 0;

  function open(id, label, make, onClose, { select = true } = {}) {
    close(id);
    const panel = h("div.board-panel", { dataset: { board: id } });
    tabs.add(id, label, panel, { closable: true, onClose: () => {
      views.get(id)?.destroy();
      views.delete(id);
      onClose?.();
      empty.hidden = views.size > 0;
    } });
    views.set(id, make(panel));
    empty.hidden = true;
    if (select || views.size === 1) {
      tabs.select(id);
      shown();
    }
  }

  function close(id) {
    if (!views.has(id)) return;
    views.get(id).destroy();
    views.delete(id);
    tabs.remove(id);
  }

  let playing = null; // the game number of the game I play now
  function live(role, record) {
    const number = record.gamenumber;
    const id = `game:${number}`;
    const label = `${record.whitename} – ${record.blackname}`;
    const leave = role === "observe" ? `unobserve ${number}` : role === "examine" ? "unexamine" : null;
    // watching my bughouse partner's board leaves my own board in front
    const select = !(role === "observe" && playing !== null && views.has(`game:${playing}`));
    open(id, label, (panel) => game.createGameView(panel, session, { gamenumber: number, role, started: record }), () => {
      if (leave && session.socket?.readyState === 1) session.send(leave);
    }, { select });
  }

  session.on("DG_MY_GAME_STARTED", (record) => {
    const role = record.played_game ? "play" : "examine";
    playing = role === "play" ? record.gamenumber : playing;
    live(role, record);
    if (role === "play" && record.wild_number === BUGHOUSE) session.send("pobserve"); // the partner's board
  });
  session.on("DG_MY_GAME_ENDED", (record) => {
    if (record.gamenumber === playing) playing = null;
  });
  session.on("DG_STARTED_OBSERVING", (record) => live("observe", record));

  return {
    /** Replay a stored game: `pgn` is {tags, moves, result}, `item` its DG_GAMELIST_ITEM. */
    replay(pgn, item) {
      replays += 1;
      const id = `replay:${replays}`;
      open(id, `Replay ${pgn.tags.White ?? item.white_name} – ${pgn.tags.Black ?? item.black_name}`, (panel) => game.createReplayView(panel, {
        initialFen: pgn.tags.FEN ?? null,
        moves: pgn.moves,
        white: pgn.tags.White ?? item.white_name,
        black: pgn.tags.Black ?? item.black_name,
        result: pgn.result,
        variant: item.wild_number,
      }));
    },
  };
}
