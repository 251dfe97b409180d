// Builds the web client into the Python package (src/icswire/web/static/), which the
// server serves as it is: one bundle, one stylesheet, the board's assets; no CDN at run time.
// `npm ci && npm run build` from web/; the output is committed so `pip install` needs no Node.
import { build } from "esbuild";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
// ICSWIRE_WEB_OUT: another folder (tests/web/test_js_codec.py builds into one to compare).
const out = process.env.ICSWIRE_WEB_OUT || join(here, "..", "src", "icswire", "web", "static");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [join(here, "src", "main.js"), join(here, "src", "style.css")],
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020"],
  outdir: out,
  entryNames: "[name]",
  legalComments: "linked",
  logLevel: "warning",
});
cpSync(join(here, "index.html"), join(out, "index.html"));
cpSync(join(here, "node_modules", "cm-chessboard", "assets"), join(out, "cm-chessboard"), {
  recursive: true,
  filter: (path) => !path.endsWith(".scss") && !path.endsWith(".map"),
});
cpSync(join(here, "public"), out, { recursive: true, filter: (path) => !path.endsWith(".keep") });
