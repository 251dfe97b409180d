// The first screen: come in as a guest, log in with a name and password, or make an
// account (when the server's operator opened registration: `register NAME PASSWORD`).
import { h } from "../ui/dom.js";

/** Shows the form in `container`; `connect({user, password})` logs in (resolving with a
 * session, rejecting with the server's words); `done(session)` once in. */
export function showLogin(container, { connect, done, message = "" }) {
  const status = h("p.login-status", { role: "status" }, message);
  const name = h("input#login-name", { name: "name", autocomplete: "username", placeholder: "name", spellcheck: false });
  const password = h("input#login-password", {
    name: "password", type: "password", autocomplete: "current-password", placeholder: "password",
  });
  const buttons = [];
  const busy = (on) => {
    for (const button of buttons) button.disabled = on;
  };

  async function enter(user, secret) {
    busy(true);
    status.textContent = "Connecting…";
    try {
      const session = await connect({ user, password: secret });
      done(session);
    } catch (error) {
      status.textContent = error.message;
      busy(false);
    }
  }

  async function register() {
    const wanted = name.value.trim();
    if (!wanted || !password.value) {
      status.textContent = "Choose a name and a password to register.";
      return;
    }
    busy(true);
    status.textContent = "Registering…";
    try {
      const guest = await connect({ user: "guest", password: "" });
      guest.resume();
      const { lines } = await guest.run(`register ${wanted} ${password.value}`);
      guest.close();
      const said = lines.filter(Boolean).join(" ");
      if (!said.startsWith(`Registered "`)) throw new Error(said || "The server did not register the name.");
      await enter(wanted, password.value);
    } catch (error) {
      status.textContent = error.message;
      busy(false);
    }
  }

  const guestButton = h("button.primary#login-guest", { type: "button", onclick: () => enter("guest", "") }, "Play as a guest");
  const loginButton = h("button#login-submit", { type: "submit" }, "Log in");
  const registerButton = h("button#login-register", { type: "button", onclick: register }, "Register");
  buttons.push(guestButton, loginButton, registerButton);
  const form = h("form.login-form", {
    onsubmit: (event) => {
      event.preventDefault();
      if (name.value.trim()) enter(name.value.trim(), password.value);
      else status.textContent = "Give your name (or play as a guest).";
    },
  },
  h("label", { for: "login-name" }, "Name"), name,
  h("label", { for: "login-password" }, "Password"), password,
  h("div.login-buttons", {}, loginButton, registerButton));
  container.replaceChildren(h("section.login", {},
    h("h1", {}, "icswire"),
    h("p.login-intro", {}, "Chess against people and computers on this server. No account needed: guests play unrated games."),
    guestButton,
    h("p.login-or", {}, "or, with an account"),
    form,
    status));
  guestButton.focus();
}
