// One session with the server over a WebSocket: the bytes of a telnet session, read as
// level 1 units and level 2 datagrams (icc-formats.txt sections 2-4). It logs in with
// `level1=` and `level2settings=` at `login:` as the Python client does, runs commands with
// a backquote tag so their whole output comes back together (section 3, level1 & 4), and
// hands each datagram, decoded from the server's DG table, to whoever listens for it.
import { DatagramDecoder, settingsBits } from "./level2.js";
import { FrameSplitter } from "./stream.js";

/** Level 1: units (1) with the tag a command was sent with in their header (4). */
const LEVEL1 = 5;
const RUN_TIMEOUT_MS = 15000;
const LOGIN_TIMEOUT_MS = 15000;

/** The bytes of a line as the server reads it: latin-1, other characters as "?". */
function lineBytes(line) {
  const bytes = new Uint8Array(line.length + 1);
  for (let i = 0; i < line.length; i += 1) {
    const code = line.charCodeAt(i);
    bytes[i] = code < 256 && code !== 10 && code !== 13 ? code : 63;
  }
  bytes[line.length] = 10;
  return bytes;
}

/** The server's WebSocket, on the host and port the page came from. */
export function defaultUrl(location) {
  const given = new URLSearchParams(location.search).get("ws");
  if (given) return given;
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`;
}

export class Session {
  /** `table`: /protocol.json; `dgs`: the DGs to turn on at login, by name or by number
   * (those without a form of their own, such as DG_MOVE_ALGEBRAIC 33, by number). */
  constructor(table, dgs) {
    this.decoder = new DatagramDecoder(table);
    this.dgs = [...new Set(dgs.map((dg) => (typeof dg === "number" ? dg : this.decoder.number(dg))))];
    this.splitter = new FrameSplitter();
    this.listeners = new Map(); // DG name, or "text" / "close", -> Set of handlers
    this.units = []; // the units open now: {tag, run}
    this.runs = new Map(); // tag -> {lines, datagrams, resolve}
    this.tags = 0;
    this.me = "";
    this.socket = null;
    this.held = null; // frames kept from the login until resume()
  }

  /** Listen for a DG by name ("DG_SEND_MOVES"), or "text" (each line not of a command
   * this session ran: {text, cn, issuer}) or "close". Returns the way to stop. */
  on(name, handler) {
    if (!this.listeners.has(name)) this.listeners.set(name, new Set());
    this.listeners.get(name).add(handler);
    return () => this.listeners.get(name).delete(handler);
  }

  emit(name, value) {
    for (const handler of [...(this.listeners.get(name) ?? [])]) {
      try {
        handler(value);
      } catch (error) {
        console.error(`a ${name} handler failed`, error);
      }
    }
  }

  /** Connect to `url` and log in: as a guest (`user` "guest", or empty), an unregistered
   * name, or a registered one with its password. Resolves with the name the server gave. */
  open(url, { user = "guest", password = "" } = {}, WebSocketClass = globalThis.WebSocket) {
    return new Promise((resolve, reject) => {
      const socket = new WebSocketClass(url);
      this.socket = socket;
      socket.binaryType = "arraybuffer";
      let settled = false;
      const finish = (error, name) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        stopWho();
        stopFailed();
        stopText();
        if (error) {
          socket.close();
          reject(error);
        } else resolve(name);
      };
      const timer = setTimeout(() => finish(new Error("the server did not log us in")), LOGIN_TIMEOUT_MS);
      const stopWho = this.on("DG_WHO_AM_I", (record) => {
        this.me = record.myname;
        this.held = []; // what follows (the lists the DGs bring) waits for resume()
        finish(null, record.myname);
      });
      const stopFailed = this.on("DG_LOGIN_FAILED", (record) => finish(new Error(record.explanation)));
      const stopText = this.on("text", ({ text }) => {
        if (text.includes("is a registered name")) finish(new Error(`"${user}" is a registered name: give its password`));
      });
      socket.onopen = () => {
        this.send(`level1=${LEVEL1}`);
        this.send(`level2settings=${settingsBits(this.dgs)}`);
        this.decoder.enabled = new Set(this.dgs);
        const name = user.trim() || "guest";
        if (password) this.send(`${name} ${password}`);
        else {
          this.send(name);
          this.send(""); // guests and unregistered names press return
        }
      };
      socket.onmessage = (message) => this.feed(message.data);
      socket.onerror = () => finish(new Error(`cannot reach the server at ${url}`));
      socket.onclose = () => {
        finish(new Error("the server closed the connection"));
        for (const run of this.runs.values()) run.reject(new Error("the connection closed"));
        this.runs.clear();
        this.emit("close", null);
      };
    });
  }

  close() {
    if (this.socket && this.socket.readyState <= 1) {
      this.send("quit");
      this.socket.close();
    }
  }

  /** Send one command line. */
  send(line) {
    this.socket.send(lineBytes(line));
  }

  /** Run a command and resolve with its output: {lines, datagrams: [{name, record}]}. */
  run(command) {
    this.tags += 1;
    const tag = `w${this.tags}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.runs.delete(tag);
        reject(new Error(`no answer to ${command}`));
      }, RUN_TIMEOUT_MS);
      const done = (value, error) => {
        clearTimeout(timer);
        this.runs.delete(tag);
        if (error) reject(error);
        else resolve(value);
      };
      this.runs.set(tag, {
        lines: [],
        datagrams: [],
        resolve: (value) => done(value),
        reject: (error) => done(null, error),
      });
      this.send(`\`${tag}\`${command}`);
    });
  }

  /** Bytes (an ArrayBuffer, or a string from a text frame) from the server. */
  feed(data) {
    const chunk = typeof data === "string" ? data : new Uint8Array(data);
    for (const frame of this.splitter.feed(chunk)) {
      if (this.held) this.held.push(frame);
      else this.take(frame);
    }
  }

  /** Hand on what came after the login (the seeks, games and challenges there are,
   * which come with it) once the page listens: call it after subscribing. */
  resume() {
    const held = this.held ?? [];
    this.held = null;
    for (const frame of held) this.take(frame);
  }

  take(frame) {
    const unit = this.units[this.units.length - 1];
    const run = unit?.run; // a unit inside a command's (somebody's tell) is not its output
    if (frame.type === "unitStart") {
      this.units.push({ cn: frame.cn, issuer: frame.issuer, run: this.runs.get(frame.tag) ?? null });
    } else if (frame.type === "unitEnd") {
      const ended = this.units.pop();
      if (ended?.run) ended.run.resolve({ lines: ended.run.lines, datagrams: ended.run.datagrams });
    } else if (frame.type === "text") {
      if (run) run.lines.push(frame.text);
      else this.emit("text", { text: frame.text, cn: unit?.cn ?? null, issuer: unit?.issuer ?? null });
    } else if (frame.type === "datagram") {
      let decoded;
      try {
        decoded = this.decoder.decode(frame.body);
      } catch (error) {
        console.warn("an unreadable datagram", frame.body, error);
        return;
      }
      if (decoded.name === "DG_SET2") this.decoder.set(decoded.record.dg_code, decoded.record.on);
      if (run) run.datagrams.push(decoded);
      this.emit(decoded.name, decoded.record);
    } else if (frame.type === "overflow") {
      this.emit("text", { text: "(the server dropped some output: too much at once)", cn: null, issuer: null });
    }
  }
}
