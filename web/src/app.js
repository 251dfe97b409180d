// The page once logged in: the boards on one side; play, watch, talk and my games in tabs
// on the other (below the board on a phone).
import { createBoards } from "./boards/boards.js";
import { createHistory } from "./history/history.js";
import { createChallenges } from "./lobby/challenges.js";
import { createSeekForm } from "./lobby/seekform.js";
import { createSeekGraph } from "./lobby/seekgraph.js";
import { createSeekList } from "./lobby/seeklist.js";
import { createSeekStore } from "./lobby/seeks.js";
import { createChat } from "./talk/chat.js";
import { h } from "./ui/dom.js";
import { noticeBar } from "./ui/notice.js";
import { createTabs } from "./ui/tabs.js";
import { createGamesList } from "./watch/games.js";

/** Save `text` as a file called `name` (a PGN). */
function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
  const link = h("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function showApp(root, session, game, { logout, registered }) {
  const boardArea = h("section.board-area", { "aria-label": "boards" });
  const side = h("section.side", { "aria-label": "lobby" });
  const header = h("header.top", {},
    h("span.brand", {}, "icswire"),
    noticeBar(),
    h("span.me#me", {}, session.me),
    h("button.logout", { type: "button", onclick: logout }, "Log out"));
  root.replaceChildren(h("div.app", {}, header, h("main.layout", {}, boardArea, side)));

  const boards = createBoards(boardArea, session, game, {
    shown: () => {
      if (window.matchMedia("(max-width: 800px)").matches) boardArea.scrollIntoView({ behavior: "smooth" });
    },
  });
  const sideTabs = createTabs(side, { className: "side-tabs" });
  const play = sideTabs.add("play", "Play", h("div.panel.play-panel"));
  const watch = sideTabs.add("watch", "Watch", h("div.panel.watch-panel"));
  const talk = sideTabs.add("talk", "Talk", h("div.panel.talk-panel"));
  const mine = sideTabs.add("games", "My games", h("div.panel.games-panel"));

  const seeks = createSeekStore(session);
  createSeekForm(play, session, { registered });
  play.append(h("h3", {}, "Seek graph"), h("p.hint", {}, "Each dot is a player waiting for a game: click one to play it."));
  createSeekGraph(play, session, seeks);
  createSeekList(play, session, seeks);
  createChallenges(play, session);
  createGamesList(watch, session);
  const chat = createChat(talk, session);
  for (const name of ["DG_PERSONAL_TELL", "DG_CHANNEL_TELL", "DG_SHOUT", "DG_KIBITZ"]) {
    session.on(name, () => sideTabs.notify("talk"));
  }
  session.on("DG_MATCH", () => sideTabs.notify("play"));
  for (const name of ["DG_MY_GAME_STARTED", "DG_STARTED_OBSERVING"]) {
    session.on(name, (record) => chat.addGame(record.gamenumber)); // to kibitz in
  }
  createHistory(mine, session, {
    replay: (pgn, item) => boards.replay(pgn, item),
    download,
  });
}
