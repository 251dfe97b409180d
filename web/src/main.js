// The web client's start: read the server's DG table, log in, show the lobby.
// `window.icswire.ready` is the time (ms from navigation) the login form was ready.
import { showApp } from "./app.js";
import * as game from "./game/index.js";
import { showLogin } from "./login/login.js";
import { Session, defaultUrl } from "./protocol/session.js";

/** The DGs the lobby, talk and my games need; the game views add theirs. */
const DGS = [
  "DG_WHO_AM_I", "DG_LOGIN_FAILED", "DG_SET2",
  "DG_GAME_STARTED", "DG_GAME_RESULT", "DG_EXAMINED_GAME_IS_GONE",
  "DG_MY_GAME_STARTED", "DG_MY_GAME_RESULT", "DG_MY_GAME_ENDED", "DG_STARTED_OBSERVING", "DG_STOP_OBSERVING",
  "DG_SEEK", "DG_SEEK_REMOVED", "DG_MATCH", "DG_MATCH_REMOVED",
  "DG_PERSONAL_TELL", "DG_PERSONAL_TELL_ECHO", "DG_PERSONAL_QTELL", "DG_CHANNEL_TELL", "DG_CHANNEL_QTELL",
  "DG_SHOUT", "DG_KIBITZ", "DG_GAMELIST_BEGIN", "DG_GAMELIST_ITEM",
];

const root = document.getElementById("app");
window.icswire = { ready: null };

async function start() {
  let table;
  try {
    const response = await fetch("protocol.json");
    if (!response.ok) throw new Error(`protocol.json: ${response.status}`);
    table = await response.json();
  } catch (error) {
    root.textContent = `This page cannot read the server's protocol table (${error.message}).`;
    return;
  }
  const dgs = [...DGS, ...game.GAME_DGS];
  const url = defaultUrl(window.location);

  function login(message = "") {
    showLogin(root, {
      message,
      connect: async ({ user, password }) => {
        const session = new Session(table, dgs);
        await session.open(url, { user, password });
        session.registered = Boolean(password);
        return session;
      },
      done: (session) => {
        let leaving = false;
        session.on("close", () => {
          if (!leaving) login("The connection to the server closed.");
        });
        showApp(root, session, game, {
          registered: () => session.registered,
          logout: () => {
            leaving = true;
            session.close();
            login();
          },
        });
        session.resume();
        // the boards are drawn from datagrams: a guest needs no text boards (style 13,
        // none); a registered player's style is saved with the account, so it stays
        if (!session.registered) session.send("set style 13");
        document.title = `icswire – ${session.me}`;
      },
    });
  }
  login();
  window.icswire.ready = performance.now();
  document.body.dataset.ready = "true";
}

start();
