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

/** Run a command and show what it said. */
export async function runShown(session, command) {
  try {
    const { lines } = await session.run(command);
    notice(lines.filter((line) => line.trim()).join(" "));
    return lines;
  } catch (error) {
    notice(error.message);
    return [];
  }
}
