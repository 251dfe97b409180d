// Challenges: those made to me (accept/decline) and by me (withdraw), from DG_MATCH (29)
// and DG_MATCH_REMOVED (30); a form challenges a player by name (`match`).
import { h, fill } from "../ui/dom.js";
import { runShown } from "../ui/notice.js";
import { VARIANTS, kindText, termWords } from "./variants.js";

const key = (challenger, receiver) => `${challenger.toLowerCase()} ${receiver.toLowerCase()}`;

export function createChallenges(container, session) {
  const challenges = new Map();
  const list = h("ul.challenges");
  const empty = h("p.empty", {}, "No challenges.");

  function render() {
    empty.hidden = challenges.size > 0;
    const me = session.me.toLowerCase();
    fill(list, [...challenges.values()].map((m) => {
      const incoming = m.receiver.toLowerCase() === me;
      const other = incoming ? m.challenger : m.receiver;
      const rating = incoming ? m.challenger_rating : m.receiver_rating;
      const terms = `${m.challenger_time}+${m.challenger_increment} ${kindText(m.rating_type, m.wild_number)} ${m.rated ? "rated" : "unrated"}`;
      const text = incoming ? `${other} (${rating || "guest"}) challenges you: ${terms}` : `You challenge ${other}: ${terms}`;
      const buttons = incoming
        ? [h("button.primary.accept", { type: "button", onclick: () => runShown(session, `accept ${other}`) }, "Accept"),
          h("button.decline", { type: "button", onclick: () => runShown(session, `decline ${other}`) }, "Decline")]
        : [h("button.withdraw", { type: "button", onclick: () => runShown(session, `withdraw ${other}`) }, "Withdraw")];
      return h(`li.challenge.${incoming ? "incoming" : "outgoing"}`, { dataset: { player: other } }, h("span", {}, text), ...buttons);
    }));
  }

  session.on("DG_MATCH", (record) => {
    challenges.set(key(record.challenger, record.receiver), record);
    render();
  });
  session.on("DG_MATCH_REMOVED", (record) => {
    challenges.delete(key(record.challenger, record.receiver));
    render();
  });

  const name = h("input", { name: "opponent", placeholder: "player", required: true, spellcheck: false });
  const minutes = h("input", { type: "number", name: "minutes", min: 0, value: 5 });
  const increment = h("input", { type: "number", name: "increment", min: 0, value: 3 });
  const rated = h("input", { type: "checkbox", name: "rated" });
  const variant = h("select", { name: "variant" }, VARIANTS.map((v) => h("option", { value: v.words }, v.label)));
  const form = h("form.challenge-form", {
    onsubmit: (event) => {
      event.preventDefault();
      const words = termWords({ rated: rated.checked, variant: variant.value });
      runShown(session, `match ${name.value.trim()} ${Number(minutes.value)} ${Number(increment.value)} ${words}`);
    },
  }, name, minutes, increment, variant, h("label.check", {}, rated, " rated"), h("button", { type: "submit" }, "Challenge"));
  const partner = h("input", { name: "partner", placeholder: "player", spellcheck: false, required: true });
  const partnership = h("form.partner-form", {
    onsubmit: (event) => {
      event.preventDefault();
      runShown(session, `partner ${partner.value.trim()}`);
    },
  }, partner, h("button", { type: "submit" }, "Ask to be partners"), h("button", { type: "button", onclick: () => runShown(session, "partner") }, "End partnership"));
  const open = h("input", {
    type: "checkbox",
    name: "bugopen",
    onchange: () => runShown(session, `set bugopen ${open.checked ? 1 : 0}`),
  });
  container.append(h("h3", {}, "Challenges"), list, empty, form,
    h("h3", {}, "Bughouse partner"),
    h("p.hint", {}, "Two partners seek or challenge another pair. Only players open for bughouse can be asked; asking back accepts."),
    h("label.check.bugopen", {}, open, " open for bughouse partners"),
    partnership);
  render();
}
