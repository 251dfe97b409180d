// A line at the top of the page telling what the server answered last.
import { h } from "./dom.js";

const bar = h("div.notice#notice", { role: "status", "aria-live": "polite" });
let timer = null;

export function noticeBar() {
  return bar;
}

export function notice(text) {
  bar.textContent = text;
  bar.classList.toggle("shown", Boolean(text));
  clearTimeout(timer);
  if (text) timer = setTimeout(() => bar.classList.remove("shown"), 8000);
}

/** Run a command and show the first line it said here; all of it goes to the console
 * (the session's "text" listeners), as a typed command's output does. */
export async function runShown(session, command) {
  try {
    const { lines } = await session.run(command);
    const said = lines.filter((line) => line.trim());
    notice(said.length > 1 ? `${said[0].trim()} …` : (said[0] ?? "").trim());
    for (const text of lines) session.emit("text", { text, cn: null, issuer: "*" });
    return lines;
  } catch (error) {
    notice(error.message);
    return [];
  }
}
