// The games being played and examined, from DG_GAME_STARTED (12; turning it on lists every
// game), DG_GAME_RESULT (13) and DG_EXAMINED_GAME_IS_GONE (14): observe one, follow a player.
import { h, fill } from "../ui/dom.js";
import { runShown } from "../ui/notice.js";
import { kindText } from "../lobby/variants.js";

export function createGamesList(container, session) {
  const games = new Map();
  const body = h("tbody");
  const empty = h("p.empty", {}, "No games are being played now.");

  function render() {
    empty.hidden = games.size > 0;
    fill(body, [...games.values()].sort((a, b) => a.gamenumber - b.gamenumber).map((g) => h("tr.game-row", { dataset: { game: g.gamenumber } },
      h("td", {}, String(g.gamenumber)),
      h("td", {}, `${g.whitename} ${g.white_rating || ""}`),
      h("td", {}, `${g.blackname} ${g.black_rating || ""}`),
      h("td", {}, g.played_game ? `${g.white_initial}+${g.white_increment} ${kindText(g.rating_type, g.wild_number)}` : "examined"),
      h("td", {}, h("button.observe", { type: "button", onclick: () => runShown(session, `observe ${g.gamenumber}`) }, "Watch")))));
  }
  session.on("DG_GAME_STARTED", (record) => {
    games.set(record.gamenumber, record);
    render();
  });
  for (const name of ["DG_GAME_RESULT", "DG_EXAMINED_GAME_IS_GONE"]) {
    session.on(name, (record) => {
      if (games.delete(record.gamenumber)) render();
    });
  }

  const player = h("input", { name: "player", placeholder: "player", spellcheck: false, required: true });
  const follow = h("form.follow-form", {
    onsubmit: (event) => {
      event.preventDefault();
      runShown(session, `follow ${player.value.trim()}`);
    },
  }, player, h("button", { type: "submit" }, "Follow"), h("button", { type: "button", onclick: () => runShown(session, "follow") }, "Stop following"),
  h("button", { type: "button", onclick: () => runShown(session, `observe ${player.value.trim()}`) }, "Watch their game"));
  container.append(
    h("table.games-list", {}, h("thead", {}, h("tr", {}, ["#", "White", "Black", "Game", ""].map((t) => h("th", {}, t)))), body),
    empty,
    h("h3", {}, "Follow a player"),
    h("p.hint", {}, "Following a player, you watch each game they start."),
    follow);
  render();
}
