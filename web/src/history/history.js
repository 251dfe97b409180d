// My games: `history` (the last games played) and `stored` (adjourned ones), as the
// DG_GAMELIST_BEGIN/ITEM (72, 73) rows they send; each game replayable from its PGN
// (`spgn #id`), which can also be downloaded, or examined on the server (`examine #id`).
import { h, fill } from "../ui/dom.js";
import { notice, runShown } from "../ui/notice.js";
import { parsePgn, pgnFileName } from "./pgn.js";

/** DG_GAMELIST_ITEM's status (0 a win, `color` the side that lost; 1 a draw; 2
 * adjourned; 3 aborted) as a score. */
function score(item) {
  if (item.status === 0) return item.color === 1 ? "0-1" : "1-0";
  return { 1: "½-½", 2: "adjourned", 3: "aborted" }[item.status] ?? "*";
}

/** A rating after a name, when there is one (guests have none: "-", "++++"). */
function rated(rating) {
  return /^[1-9]\d*$/.test(rating) ? ` ${rating}` : "";
}

/** `replay(pgn, item)` shows a game; `download(name, text)` saves a file. */
export function createHistory(container, session, { replay, download }) {
  const who = h("input", { name: "history-player", placeholder: "player (you)", spellcheck: false });
  const body = h("tbody");
  const caption = h("p.hint", {}, "");

  async function pgnOf(item) {
    const { lines } = await session.run(`spgn #${item.id}`);
    const text = lines.join("\n").trim();
    if (!text.startsWith("[")) throw new Error(text || "The server sent no PGN.");
    return `${text}\n`;
  }

  async function show(command) {
    const name = who.value.trim();
    let output;
    try {
      output = await session.run(name ? `${command} ${name}` : command);
    } catch (error) {
      notice(error.message);
      return;
    }
    const items = output.datagrams.filter((d) => d.name === "DG_GAMELIST_ITEM").map((d) => d.record);
    caption.textContent = items.length ? "" : output.lines.filter(Boolean).join(" ") || "No games.";
    fill(body, items.map((item) => h("tr.history-row", { dataset: { id: item.id } },
      h("td", {}, item.white_name, rated(item.white_rating)),
      h("td", {}, item.black_name, rated(item.black_rating)),
      h("td", {}, `${item.white_initial}+${item.white_increment}`),
      h("td.result", {}, score(item)),
      h("td", { title: `${item.eco} ${item.note}` }, item.date),
      h("td", {}, h("div.actions", {},
        h("button.replay", {
          type: "button",
          onclick: async () => {
            try {
              replay(parsePgn(await pgnOf(item)), item);
            } catch (error) {
              notice(error.message);
            }
          },
        }, "Replay"),
        h("button.examine", { type: "button", title: "go through it on a board of your own", onclick: () => runShown(session, `examine #${item.id}`) }, "Examine"),
        h("button.download", {
          type: "button",
          onclick: async () => {
            try {
              const text = await pgnOf(item);
              download(pgnFileName(parsePgn(text).tags), text);
            } catch (error) {
              notice(error.message);
            }
          },
        }, "PGN"))))));
  }

  container.append(
    h("form.history-form", { onsubmit: (event) => { event.preventDefault(); show("history"); } },
      who,
      h("button.primary#show-history", { type: "submit" }, "History"),
      h("button#show-stored", { type: "button", onclick: () => show("stored") }, "Adjourned")),
    h("div.table-scroll", {},
      h("table.history-list", {}, h("thead", {}, h("tr", {}, ["White", "Black", "Time", "Result", "Date", ""].map((t) => h("th", {}, t)))), body)),
    caption);
  return { show };
}
