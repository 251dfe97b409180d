// Builds the game view's dev harness (not shipped): `node dev/game-harness/build.mjs OUTDIR`
// writes OUTDIR/index.html, harness.js/.css and cm-chessboard's assets and the sounds, to
// open in a browser (file:// or any static server) or drive with Playwright.
import { build } from "esbuild";
import { cpSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, "..", "..");
const out = resolve(process.argv[2] || "/tmp/icswire-game-harness");
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, "harness.js")],
  bundle: true,
  format: "esm",
  target: ["es2020"],
  outdir: out,
  logLevel: "warning",
});
cpSync(join(here, "index.html"), join(out, "index.html"));
cpSync(join(web, "node_modules", "cm-chessboard", "assets"), join(out, "cm-chessboard"), { recursive: true });
cpSync(join(web, "public"), out, { recursive: true });
console.log(out);
