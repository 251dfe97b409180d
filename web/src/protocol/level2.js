// Level 2 datagrams (icc-formats.txt section 4) decoded from the server's DG table
// (/protocol.json, made from the same forms as the Python codec: protocol/dgtable.py).
// Nothing here knows a field order: each form's field list says it.

const QUOTED = /(\x19\{[^\x19]*\x19\}|\{[^{}\x19]*\})/;

/** A datagram body's fields: {values (unquoted), tokens (as on the wire)}. A blank is a
 * space; `{text}` and `^Y{text^Y}` quote; `{}` is the empty string. */
export function splitFields(body) {
  const values = [];
  const tokens = [];
  body.split(QUOTED).forEach((part, k) => {
    if (k % 2 === 1) {
      tokens.push(part);
      values.push(part[0] === "\x19" ? part.slice(2, -2) : part.slice(1, -1));
      return;
    }
    if (/[{}\x19]/.test(part)) throw new Error(`unreadable datagram field in ${JSON.stringify(body)}`);
    for (const word of part.split(" ")) {
      if (word) {
        tokens.push(word);
        values.push(word);
      }
    }
  });
  return { values, tokens };
}

const FLAGS = { 0: false, 1: true };
const OPTIONAL_FLAGS = { 0: false, 1: true, "": null };

function integer(text, name) {
  if (!/^-?\d+$/.test(text)) throw new Error(`field ${name} is ${JSON.stringify(text)}, not a number`);
  return Number(text);
}

function scalar(kind, text, name) {
  if (kind === "i") return integer(text, name);
  if (kind === "b" || kind === "f") {
    const value = (kind === "b" ? FLAGS : OPTIONAL_FLAGS)[text];
    if (value === undefined) throw new Error(`field ${name} is ${JSON.stringify(text)}, not a flag`);
    return value;
  }
  return text;
}

/** Decodes datagrams for a receiver with some DGs on (they change some forms). */
export class DatagramDecoder {
  /** `table`: /protocol.json; `enabled`: the DG numbers on. */
  constructor(table, enabled = []) {
    this.table = table;
    this.names = {};
    for (const [number, entry] of Object.entries(table.datagrams)) this.names[entry.name] = Number(number);
    this.enabled = new Set(enabled);
  }

  /** The DG number of a name such as "DG_SEND_MOVES". */
  number(name) {
    const n = this.names[name];
    if (n === undefined) throw new Error(`no datagram named ${name}`);
    return n;
  }

  set(dg, on) {
    if (on) this.enabled.add(dg);
    else this.enabled.delete(dg);
  }

  /** {dg, name, record}: the record a plain object, field name -> value (`dg` and
   * `extra`, the fields after the documented ones as wire tokens, besides). */
  decode(body) {
    const { values, tokens } = splitFields(body);
    const dg = integer(values[0] ?? "", "number");
    const entry = this.table.datagrams[String(dg)];
    if (!entry) return { dg, name: `DG_${dg}`, record: { dg, fields: tokens.slice(1) } };
    const record = { dg };
    let k = 1;
    const fields = entry.fields;
    fields.forEach((f, n) => {
      if (f.when !== null && !this.enabled.has(f.when)) {
        record[f.name] = null;
      } else if (f.kind === "R") {
        const on = this.table.rating_dgs.filter((r) => this.enabled.has(r));
        record[f.name] = on.map((r, j) => ({
          dg: r,
          rating: integer(values[k + 2 * j], f.name),
          annotation: integer(values[k + 2 * j + 1], f.name),
        }));
        k += 2 * on.length;
      } else if (f.kind === "M") {
        record[f.name] = values.slice(k).map((text) => this.moveInfo(text));
      } else if (f.kind === "P") {
        record[f.name] = pstatRecords(values.slice(k), this.table.pstat_fields);
      } else if (f.repeated) {
        record[f.name] = values.slice(k).map((v) => (f.kind === "i" ? integer(v, f.name) : v));
      } else if (k >= values.length && f.optional) {
        record[f.name] = null;
      } else if (f.optional && f.kind === "i" && !/^-?\d+$/.test(values[k]) && n + 1 < fields.length) {
        record[f.name] = null; // an optional number some servers leave out before more fields
      } else {
        if (k >= values.length) throw new Error(`${entry.name}: field ${f.name} is missing`);
        record[f.name] = scalar(f.kind, values[k], `${entry.name}.${f.name}`);
        k += 1;
      }
    });
    if (!fields.some((f) => f.repeated)) record.extra = tokens.slice(k);
    return { dg, name: entry.name, record };
  }

  /** One `{...}` move of DG_MOVE_LIST: its parts are those of the move-part DGs on. */
  moveInfo(text) {
    const parts = text.split(" ").filter(Boolean);
    const move = {};
    let k = 0;
    for (const part of this.table.move_parts) {
      if (!this.enabled.has(part.when)) {
        move[part.name] = null;
        continue;
      }
      if (k >= parts.length) throw new Error(`a move has too few parts: ${JSON.stringify(text)}`);
      move[part.name] = scalar(part.kind, parts[k], part.name);
      k += 1;
    }
    return move;
  }
}

/** DG_PSTAT's records: groups of integers (one per name of `names`) separated by `|`. */
function pstatRecords(values, names) {
  const records = [];
  let group = [];
  for (const value of values.length ? [...values, "|"] : []) {
    if (value !== "|") {
      group.push(integer(value, "records"));
      continue;
    }
    if (group.length !== names.length) throw new Error(`a DG_PSTAT record has ${group.length} numbers`);
    records.push(Object.fromEntries(names.map((name, j) => [name, group[j]])));
    group = [];
  }
  return records;
}

/** The `level2settings=` value that turns on `dgs`. */
export function settingsBits(dgs) {
  const max = Math.max(...dgs);
  let bits = "";
  for (let n = 0; n <= max; n += 1) bits += dgs.includes(n) ? "1" : "0";
  return bits;
}
