// Writes the game's sounds (web/public/sounds/*.wav): small synthesized PCM files, so the
// client ships no recorded sound of anyone's. `node scripts/make-sounds.mjs` from web/.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const RATE = 22050;
const out = join(dirname(fileURLToPath(import.meta.url)), "..", "public", "sounds");

/** A tone: frequency (Hz), length (s), loudness, with a quick attack and a decay. */
function tone(freq, seconds, loud = 0.5, decay = 6) {
  const n = Math.round(RATE * seconds);
  return Float32Array.from({ length: n }, (_, i) => {
    const t = i / RATE;
    const env = Math.min(1, i / (RATE * 0.004)) * Math.exp(-decay * t);
    return loud * env * Math.sin(2 * Math.PI * freq * t);
  });
}

/** A wooden knock: a low thump and a short filtered noise burst (seeded, so rebuilds match). */
function knock(loud = 0.8, seconds = 0.09) {
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
  const n = Math.round(RATE * seconds);
  let low = 0;
  return Float32Array.from({ length: n }, (_, i) => {
    const t = i / RATE;
    low += 0.35 * (random() - low);
    const thump = Math.sin(2 * Math.PI * 180 * t) * Math.exp(-45 * t);
    return loud * (0.6 * thump + 0.5 * low * Math.exp(-70 * t));
  });
}

function silence(seconds) {
  return new Float32Array(Math.round(RATE * seconds));
}

function concat(...parts) {
  const total = parts.reduce((a, p) => a + p.length, 0);
  const outArr = new Float32Array(total);
  let at = 0;
  for (const p of parts) {
    outArr.set(p, at);
    at += p.length;
  }
  return outArr;
}

function wav(samples) {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s)) * 32767), i * 2));
  const head = Buffer.alloc(44);
  head.write("RIFF", 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write("WAVEfmt ", 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(RATE, 24);
  head.writeUInt32LE(RATE * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write("data", 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

const SOUNDS = {
  move: knock(0.7),
  capture: concat(knock(0.9), silence(0.035), knock(0.6)),
  check: concat(tone(880, 0.09, 0.35, 12), tone(1175, 0.14, 0.35, 10)),
  start: concat(tone(523, 0.09, 0.3, 8), tone(659, 0.09, 0.3, 8), tone(784, 0.2, 0.3, 6)),
  end: concat(tone(784, 0.09, 0.3, 8), tone(659, 0.09, 0.3, 8), tone(523, 0.25, 0.3, 5)),
  lowtime: concat(tone(1000, 0.05, 0.3, 20), silence(0.06), tone(1000, 0.05, 0.3, 20)),
};

mkdirSync(out, { recursive: true });
for (const [name, samples] of Object.entries(SOUNDS)) writeFileSync(join(out, `${name}.wav`), wav(samples));
console.log(Object.keys(SOUNDS).map((n) => `${n}.wav`).join(" "));
