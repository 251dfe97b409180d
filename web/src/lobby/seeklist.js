// The seeks as a table: who, rating, time, kind; a button answers one (or withdraws one's own).
import { h, fill } from "../ui/dom.js";
import { colorText, isMine, seekCommand } from "./seeks.js";
import { kindText } from "./variants.js";

export function createSeekList(container, session, store) {
  const body = h("tbody");
  const empty = h("p.empty", {}, "No seeks now: post one and wait for an opponent.");
  container.append(h("table.seek-list", {},
    h("thead", {}, h("tr", {}, ["Player", "Rating", "Time", "Game", ""].map((t) => h("th", {}, t)))),
    body), empty);
  store.subscribe((seeks) => {
    empty.hidden = seeks.length > 0;
    fill(body, seeks.sort((a, b) => a.time - b.time || a.increment - b.increment).map((seek) => {
      const mine = isMine(session, seek);
      return h("tr.seek-row", { dataset: { index: seek.index } },
        h("td", {}, seek.playername, seek.titles ? ` (${seek.titles})` : ""),
        h("td", {}, seek.rating ? String(seek.rating) : "—"),
        h("td", {}, `${seek.time}+${seek.increment}`),
        h("td", {}, `${kindText(seek.rating_type, seek.wild_number)} ${seek.rated ? "rated" : "unrated"} ${colorText(seek.color)}`),
        h("td", {}, h("button", { type: "button", onclick: () => session.send(seekCommand(session, seek)) }, mine ? "Withdraw" : "Play")));
    }));
  });
}
