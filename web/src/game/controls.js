// The buttons of a game by role, as the commands they send: a player's offers
// (draw, abort, adjourn, takeback 1; resign after a second click), an examiner's steps
// (backward/forward, all the way with 999), an observer's unobserve.
import { button, el } from "./dom.js";
import { offerText } from "./offers.js";

/** The command buttons for ``state``; ``send(line)`` sends one. */
export function renderControls(element, state, send) {
  element.replaceChildren();
  const n = state.gamenumber;
  if (state.gone) return;
  if (state.role === "play" && !state.result) {
    element.append(
      button("Draw", () => send("draw"), { title: "Offer or claim a draw", "data-cmd": "draw" }),
      confirmButton("Resign", () => send("resign")),
      button("Abort", () => send("abort"), { title: "Ask to abort the game", "data-cmd": "abort" }),
      button("Takeback", () => send("takeback 1"), { title: "Ask to take back one half-move", "data-cmd": "takeback" }),
      button("Adjourn", () => send("adjourn"), { title: "Ask to adjourn the game", "data-cmd": "adjourn" }),
    );
  } else if (state.role === "examine") {
    element.append(
      button("|◀", () => send("backward 999"), { title: "Back to the start", "data-cmd": "backward-all" }),
      button("◀", () => send("backward"), { title: "One move back", "data-cmd": "backward" }),
      button("▶", () => send("forward"), { title: "One move forward", "data-cmd": "forward" }),
      button("▶|", () => send("forward 999"), { title: "Forward to the end", "data-cmd": "forward-all" }),
      button("Unexamine", () => send("unexamine"), { "data-cmd": "unexamine" }),
    );
  } else if (state.role === "observe" && n > 0 && !state.result) {
    element.append(button("Stop watching", () => send(`unobserve ${n}`), { "data-cmd": "unobserve" }));
  }
}

/** A button that asks "Sure?" first and acts on the second click within 3 seconds. */
function confirmButton(label, act) {
  let armed = null;
  const b = button(label, () => {
    if (armed) {
      clearTimeout(armed);
      armed = null;
      b.textContent = label;
      b.classList.remove("armed");
      act();
      return;
    }
    b.textContent = `${label}?`;
    b.classList.add("armed");
    armed = setTimeout(() => {
      armed = null;
      b.textContent = label;
      b.classList.remove("armed");
    }, 3000);
  }, { "data-cmd": label.toLowerCase() });
  return b;
}

/** The offers standing: the opponent's with Accept and Decline, one's own with Withdraw. */
export function renderOffers(element, state, send) {
  element.replaceChildren();
  for (const offer of state.offers) {
    const mine = state.role === "play" && offer.by === state.mine;
    const theirs = state.role === "play" && !mine;
    const row = el("div", { class: "gv-offer", "data-kind": offer.kind }, el("span", { text: offerText(offer, state.mine) }));
    if (theirs) {
      row.append(
        button("Accept", () => send(`accept ${offer.kind}`), { class: "accept" }),
        button("Decline", () => send(`decline ${offer.kind}`), { class: "decline" }),
      );
    } else if (mine) {
      row.append(button("Withdraw", () => send(`withdraw ${offer.kind}`), { class: "withdraw" }));
    }
    element.append(row);
  }
  element.hidden = state.offers.length === 0;
}
