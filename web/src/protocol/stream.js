// Splits the bytes of a telnet session into frames: telnet commands out (IAC IAC is a
// byte 255), then level 1 unit headers `^Y[cn issuer tag` and ends `^Y]`, level 2
// datagrams `^Y(...^Y)` (icc-formats.txt sections 3 and 4) and text lines. A frame cut
// between two chunks waits for its end; the same stream cut anywhere gives the same frames.

const IAC = 0xff;
const SB = 250;
const SE = 240;
const CTRL_Y = "\x19";

/** Telnet's escaping taken out of a byte stream, kept across chunks. */
class TelnetFilter {
  constructor() {
    this.pending = [];
  }

  /** The data bytes of `chunk` (a Uint8Array) as a latin-1 string. */
  feed(chunk) {
    const bytes = this.pending.length ? Uint8Array.from([...this.pending, ...chunk]) : chunk;
    this.pending = [];
    let out = "";
    let i = 0;
    while (i < bytes.length) {
      const start = i;
      while (i < bytes.length && bytes[i] !== IAC) i += 1;
      out += latin1(bytes, start, i);
      if (i >= bytes.length) break;
      const skip = commandLength(bytes, i);
      if (skip === 0) {
        this.pending = Array.from(bytes.subarray(i));
        break;
      }
      if (bytes[i + 1] === IAC) out += "\xff";
      i += skip;
    }
    return out;
  }
}

/** How many bytes the telnet command at `i` takes (0: not all here yet). */
function commandLength(bytes, i) {
  if (i + 1 >= bytes.length) return 0;
  const verb = bytes[i + 1];
  if (verb >= 251 && verb <= 254) return i + 2 < bytes.length ? 3 : 0;
  if (verb !== SB) return 2;
  for (let j = i + 2; j + 1 < bytes.length; j += 1) {
    if (bytes[j] === IAC && bytes[j + 1] === SE) return j + 2 - i;
  }
  return 0;
}

function latin1(bytes, start, end) {
  let out = "";
  for (let i = start; i < end; i += 8192) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 8192)));
  }
  return out;
}

/**
 * The frames of a server-to-client stream. `feed(chunk)` returns those the chunk completed:
 * {type: "text", text} (a line, bells and carriage returns out), {type: "datagram", body},
 * {type: "unitStart", cn, issuer, tag}, {type: "unitEnd"}, {type: "overflow"}.
 */
export class FrameSplitter {
  constructor() {
    this.telnet = new TelnetFilter();
    this.buf = "";
    this.line = "";
  }

  feed(chunk) {
    this.buf += typeof chunk === "string" ? chunk : this.telnet.feed(chunk);
    const frames = [];
    let pos = 0;
    const buf = this.buf;
    while (pos < buf.length) {
      const c = buf[pos];
      if (c === CTRL_Y) {
        if (pos + 1 >= buf.length) break;
        const kind = buf[pos + 1];
        if (kind === "(") {
          const end = buf.indexOf("\x19)", pos + 2);
          if (end < 0) break;
          frames.push({ type: "datagram", body: buf.slice(pos + 2, end) });
          pos = end + 2;
        } else if (kind === "[") {
          const end = buf.indexOf("\n", pos + 2);
          if (end < 0) break;
          const [cn, issuer, tag] = buf.slice(pos + 2, end).replace(/\r$/, "").split(" ");
          this.flushLine(frames);
          frames.push({ type: "unitStart", cn: Number(cn), issuer: issuer ?? "", tag: tag ?? null });
          pos = end + 1;
        } else {
          if (kind === "]") {
            this.flushLine(frames);
            frames.push({ type: "unitEnd" });
          }
          pos += 2; // ^Y< and ^Y> (command marks) need nothing
        }
      } else if (c === "\x1a") {
        frames.push({ type: "overflow" });
        pos += 1;
      } else {
        let end = pos;
        while (end < buf.length && buf[end] !== "\n" && buf[end] !== CTRL_Y && buf[end] !== "\x1a") {
          end += 1;
        }
        this.line += buf.slice(pos, end);
        pos = end;
        if (buf[end] === "\n") {
          this.flushLine(frames, true);
          pos += 1;
        }
      }
    }
    this.buf = buf.slice(pos);
    return frames;
  }

  /** The pending text as a line: at its newline, or (`force` false) when a unit
   * begins or ends, which no line outlives; a line that is empty then is no line. */
  flushLine(frames, force = false) {
    const text = this.line.replace(/[\r\x07]/g, "");
    this.line = "";
    if (force || text) frames.push({ type: "text", text });
  }
}
