// Talk: a tab per conversation (a player's tells, a channel, shouts, a game's kibitzes)
// and the console (what the server says otherwise, and any command typed there).
import { h } from "../ui/dom.js";
import { createTabs } from "../ui/tabs.js";

const MAX_LINES = 500;

export function createChat(container, session) {
  const tabs = createTabs(container, { className: "chat-tabs" });
  const logs = new Map(); // tab id -> log element

  /** `echo`: the server does not send my own lines back here (channels, shouts), so
   * the page writes them once the server says it passed them on ("(told 3 players ...)"). */
  function conversation(id, label, command, { closable = true, echo = false } = {}) {
    if (logs.has(id)) return logs.get(id);
    const log = h("div.chat-log", { dataset: { log: id }, "aria-live": "polite" });
    const input = h("input.chat-input", { name: "say", autocomplete: "off", placeholder: command ? "say…" : "command…", spellcheck: false });
    const form = h("form.chat-form", {
      onsubmit: (event) => {
        event.preventDefault();
        const text = input.value;
        if (!text.trim()) return;
        input.value = "";
        if (command) {
          const lines = [command(text)].flat(); // a kibitz goes to the primary game: set it first
          for (const line of lines.slice(0, -1)) session.send(line);
          say(id, lines[lines.length - 1], echo ? text : null);
        } else {
          write(id, `> ${text}`, "mine");
          session.send(text);
        }
      },
    }, input, h("button", { type: "submit" }, "Send"));
    tabs.add(id, label, h("div.chat-panel", {}, log, form), {
      closable,
      onClose: () => logs.delete(id),
    });
    logs.set(id, log);
    return log;
  }

  function write(id, text, kind = "") {
    const log = logs.get(id);
    if (!log) return;
    const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 30;
    log.append(h(`div.chat-line${kind ? `.${kind}` : ""}`, {}, text));
    while (log.childElementCount > MAX_LINES) log.firstElementChild.remove();
    if (atEnd) log.scrollTop = log.scrollHeight;
    tabs.notify(id);
  }

  /** Send a line of a conversation; what the server answers (a refusal, "(told 2
   * players)") shows in the conversation, dimmed. */
  async function say(id, line, echo) {
    try {
      const { lines } = await session.run(line);
      const said = lines.map((answer) => answer.trim()).filter(Boolean);
      if (echo !== null && said.some((answer) => answer.startsWith("("))) write(id, `${session.me}: ${echo}`, "mine");
      for (const answer of said) write(id, answer, "server");
    } catch (error) {
      write(id, error.message, "server");
    }
  }

  const person = (name) => {
    const id = `tell:${name.toLowerCase()}`;
    conversation(id, name, (text) => `tell ${name} ${text}`);
    return id;
  };
  const channel = (number) => {
    const id = `channel:${number}`;
    conversation(id, `#${number}`, (text) => `tell ${number} ${text}`, { echo: true });
    return id;
  };
  const game = (number) => {
    const id = `game:${number}`;
    conversation(id, `Game ${number}`, (text) => [`primary ${number}`, `kibitz ${text}`]);
    return id;
  };

  conversation("console", "Console", null, { closable: false });
  conversation("shouts", "Shouts", (text) => `shout ${text}`, { closable: false, echo: true });

  session.on("text", ({ text }) => write("console", text));
  session.on("DG_PERSONAL_TELL", (r) => write(person(r.playername), `${r.playername}: ${r.text}`));
  session.on("DG_PERSONAL_QTELL", (r) => write(person(r.playername), `${r.playername}: ${r.text}`));
  session.on("DG_PERSONAL_TELL_ECHO", (r) => write(person(r.receiver), `${session.me}: ${r.text}`, "mine"));
  session.on("DG_CHANNEL_TELL", (r) => write(channel(r.channel), `${r.playername}: ${r.text}`));
  session.on("DG_CHANNEL_QTELL", (r) => write(channel(r.channel), `${r.playername}: ${r.text}`));
  session.on("DG_SHOUT", (r) => write("shouts", `${r.playername}${r.type === 1 ? "" : ":"} ${r.text}`));
  session.on("DG_KIBITZ", (r) => write(game(r.gamenumber), `${r.playername} ${r.kibitz ? "kibitzes" : "whispers"}: ${r.text}`));

  /** The "new conversation" form: a player's name or a channel's number. */
  const target = h("input", { name: "talk-to", placeholder: "player or channel number", spellcheck: false });
  const opener = h("form.chat-open", {
    onsubmit: (event) => {
      event.preventDefault();
      const who = target.value.trim();
      if (!who) return;
      target.value = "";
      if (/^\d+$/.test(who)) {
        session.send(`+channel ${who}`);
        tabs.select(channel(Number(who)));
      } else tabs.select(person(who));
    },
  }, target, h("button", { type: "submit" }, "Talk"));
  container.prepend(opener);

  return {
    /** A game's kibitz tab, made if need be (not shown). */
    addGame: (number) => game(number),
  };
}
