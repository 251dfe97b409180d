// The session over a fake WebSocket: the login lines, DG_WHO_AM_I, a command's unit
// collected by its tag, datagrams handed to listeners.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Session, defaultUrl } from "../src/protocol/session.js";

const { table } = JSON.parse(readFileSync(new URL("./fixtures/codec.json", import.meta.url), "utf-8"));

class FakeSocket {
  static last = null;
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.readyState = 1;
    FakeSocket.last = this;
    queueMicrotask(() => this.onopen());
  }
  send(bytes) {
    this.sent.push(String.fromCharCode(...bytes));
  }
  close() {
    this.readyState = 3;
  }
  serve(text) {
    this.onmessage({ data: Uint8Array.from(text, (c) => c.charCodeAt(0)).buffer });
  }
}

async function loggedIn(user = "guest", password = "") {
  const session = new Session(table, ["DG_WHO_AM_I", "DG_LOGIN_FAILED", "DG_PERSONAL_TELL", "DG_SEEK", 33]);
  const login = session.open("ws://x/", { user, password }, FakeSocket);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { session, login, socket: FakeSocket.last };
}

test("a guest logs in with the settings first, then the name and a return", async () => {
  const { session, login, socket } = await loggedIn();
  assert.deepEqual(socket.sent, ["level1=5\n", `level2settings=${expectedBits()}\n`, "guest\n", "\n"]);
  socket.serve("login: \x19(0 GuestABCD {}\x19)");
  assert.equal(await login, "GuestABCD");
  assert.equal(session.me, "GuestABCD");
});

function expectedBits() {
  const on = new Set([0, 69, 31, 50, 33]);
  return Array.from({ length: 70 }, (_, n) => (on.has(n) ? "1" : "0")).join("");
}

test("what comes with the login waits until the page listens", async () => {
  const { session, login, socket } = await loggedIn();
  socket.serve("\x19[12 *\n\x19(0 GuestABCD {}\x19)\x19]\x19[12 *\n\x19(50 3 fred {} 1500 2 0 Blitz 5 3 0 -1 0 9999 1 0\x19)\x19]");
  await login;
  const seeks = [];
  session.on("DG_SEEK", (record) => seeks.push(record.index));
  assert.deepEqual(seeks, []);
  session.resume();
  assert.deepEqual(seeks, [3]);
  socket.serve("\x19(50 4 joe {} 1500 2 0 Blitz 5 3 0 -1 0 9999 1 0\x19)");
  assert.deepEqual(seeks, [3, 4]);
});

test("a refused login rejects with the server's words", async () => {
  const { login, socket } = await loggedIn("fred", "wrong");
  assert.equal(socket.sent[2], "fred wrong\n");
  socket.serve("\r\n**** Invalid password! ****\r\n\x19(69 4 {Invalid password.}\x19)");
  await assert.rejects(login, /Invalid password/);
});

test("a command's output comes back whole by its tag; other output goes to listeners", async () => {
  const { session, login, socket } = await loggedIn();
  socket.serve("\x19(0 GuestABCD {}\x19)");
  await login;
  session.resume();
  const texts = [];
  const tells = [];
  session.on("text", ({ text }) => texts.push(text));
  const stop = session.on("DG_PERSONAL_TELL", (record) => tells.push(record));
  const ran = session.run("sought");
  assert.equal(socket.sent.at(-1), "`w1`sought\n");
  socket.serve("\x19[215 GuestABCD w1\n  3 1500 fred 5 3 unrated blitz\x19(50 3 fred {} 1500 2 0 Blitz 5 3 0 -1 0 9999 1 0\x19)\r\n");
  socket.serve("\x19[101 %\nfred tells you: hi\r\n\x19(31 fred {} \x19{hi\x19} 1\x19)\x19]");
  socket.serve("1 ad displayed.\r\n\x19]");
  const { lines, datagrams } = await ran;
  assert.deepEqual(lines, ["  3 1500 fred 5 3 unrated blitz", "1 ad displayed."]);
  assert.deepEqual(datagrams.map((d) => [d.name, d.record.index]), [["DG_SEEK", 3]]);
  assert.deepEqual(texts, ["fred tells you: hi"]);
  assert.equal(tells[0].text, "hi");
  stop();
  socket.serve("\x19[101 %\n\x19(31 fred {} \x19{again\x19} 1\x19)\x19]");
  assert.equal(tells.length, 1);
});

test("non-latin-1 characters go as question marks; the page's host is the server", () => {
  const session = new Session(table, ["DG_WHO_AM_I"]);
  const sent = [];
  session.socket = { send: (bytes) => sent.push([...bytes]) };
  session.send("é€");
  assert.deepEqual(sent[0], [0xe9, 63, 10]);
  assert.equal(defaultUrl({ protocol: "https:", host: "h:1", search: "" }), "wss://h:1/");
  assert.equal(defaultUrl({ protocol: "http:", host: "h:1", search: "?ws=ws://o:2/" }), "ws://o:2/");
});
