// The seek graph: each seek a dot, by how long its game lasts (log scale, across) and
// the seeker's rating (up); a click answers it (`play N`), or withdraws one's own.
import { svg } from "../ui/dom.js";
import { colorText, isMine, seekCommand } from "./seeks.js";
import { kindText } from "./variants.js";

const WIDTH = 400;
const HEIGHT = 240;
const PAD = { left: 34, right: 8, top: 8, bottom: 22 };
const MINUTES = [0.5, 120]; // the time axis' ends: estimated minutes a side
const RATINGS = [0, 2800];
const TICKS = [1, 3, 5, 10, 15, 30, 60];

/** Minutes a side a game of `time` + `increment` takes, for 40 moves. */
function estimate(time, increment) {
  return time + (increment * 2) / 3;
}

function x(minutes) {
  const [lo, hi] = MINUTES.map(Math.log);
  const clamped = Math.min(Math.max(minutes, MINUTES[0]), MINUTES[1]);
  return PAD.left + ((Math.log(clamped) - lo) / (hi - lo)) * (WIDTH - PAD.left - PAD.right);
}

function y(rating) {
  const clamped = Math.min(Math.max(rating, RATINGS[0]), RATINGS[1]);
  return HEIGHT - PAD.bottom - ((clamped - RATINGS[0]) / (RATINGS[1] - RATINGS[0])) * (HEIGHT - PAD.top - PAD.bottom);
}

export function createSeekGraph(container, session, store) {
  const plot = svg("svg", { class: "seek-graph", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": "seek graph" });
  container.append(plot);
  const axes = svg("g", { class: "axes" });
  for (const minutes of TICKS) {
    axes.append(svg("line", { x1: x(minutes), x2: x(minutes), y1: PAD.top, y2: HEIGHT - PAD.bottom, class: "grid" }));
    axes.append(svg("text", { x: x(minutes), y: HEIGHT - 6, "text-anchor": "middle" }, `${minutes}m`));
  }
  axes.append(svg("text", { x: PAD.left - 4, y: y(0) + 3, "text-anchor": "end" }, "guest")); // no rating: 0
  for (let rating = 500; rating < RATINGS[1]; rating += 500) {
    axes.append(svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(rating), y2: y(rating), class: "grid" }));
    axes.append(svg("text", { x: PAD.left - 4, y: y(rating) + 4, "text-anchor": "end" }, String(rating)));
  }
  const dots = svg("g", { class: "dots" });
  plot.append(axes, dots);

  store.subscribe((seeks) => {
    dots.replaceChildren();
    for (const seek of seeks) {
      const mine = isMine(session, seek);
      const cx = x(estimate(seek.time, seek.increment)) + ((seek.index % 5) - 2) * 2;
      const cy = y(seek.rating) - ((seek.index % 3) - 1) * 2;
      const classes = ["seek-dot", seek.rated ? "rated" : "unrated", seek.wild_number ? "variant" : "standard"];
      if (mine) classes.push("mine");
      const title = `${seek.playername} ${seek.rating || "guest"} · ${seek.time}+${seek.increment} ${kindText(seek.rating_type, seek.wild_number)}`
        + ` ${seek.rated ? "rated" : "unrated"} ${colorText(seek.color)}${mine ? " (yours: click to withdraw)" : " (click to play)"}`;
      const shape = seek.wild_number
        ? svg("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, transform: `rotate(45 ${cx} ${cy})` })
        : svg("circle", { cx, cy, r: 7 });
      const dot = svg("g", {
        class: classes.join(" "),
        "data-index": seek.index,
        "data-player": seek.playername,
        tabindex: 0,
        role: "button",
        onclick: () => session.send(seekCommand(session, seek)),
        onkeydown: (event) => {
          if (event.key === "Enter" || event.key === " ") session.send(seekCommand(session, seek));
        },
      }, svg("title", {}, title), shape);
      dots.append(dot);
    }
  });
}
