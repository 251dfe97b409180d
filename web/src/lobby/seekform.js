// Posting seeks: one click for the usual time controls, or a form for the rest.
import { h } from "../ui/dom.js";
import { runShown } from "../ui/notice.js";
import { VARIANTS, termWords } from "./variants.js";

const QUICK = [
  [1, 0],
  [3, 0],
  [5, 3],
  [15, 10],
];

export function createSeekForm(container, session, { registered }) {
  const quick = h("div.quick-seeks", {}, QUICK.map(([minutes, increment]) => h("button.quick-seek", {
    type: "button",
    dataset: { seek: `${minutes}+${increment}` },
    onclick: () => runShown(session, `seek ${minutes} ${increment} ${termWords({ rated: registered() })}`),
  }, `${minutes}+${increment}`)));

  const minutes = h("input", { type: "number", name: "minutes", min: 0, max: 999, value: 10 });
  const increment = h("input", { type: "number", name: "increment", min: 0, max: 999, value: 5 });
  const rated = h("input", { type: "checkbox", name: "rated" });
  const color = h("select", { name: "color" },
    h("option", { value: "" }, "either colour"), h("option", { value: "white" }, "white"), h("option", { value: "black" }, "black"));
  const variant = h("select", { name: "variant" }, VARIANTS.map((v) => h("option", { value: v.words }, v.label)));
  const low = h("input", { type: "number", name: "low", min: 0, max: 9999, placeholder: "min" });
  const high = h("input", { type: "number", name: "high", min: 0, max: 9999, placeholder: "max" });
  const form = h("form.seek-form", {
    onsubmit: (event) => {
      event.preventDefault();
      const range = low.value || high.value ? ` ${low.value || 0}-${high.value || 9999}` : "";
      const words = termWords({ rated: rated.checked, color: color.value, variant: variant.value });
      runShown(session, `seek ${Number(minutes.value)} ${Number(increment.value)} ${words}${range}`);
    },
  },
  h("label", {}, "Minutes ", minutes), h("label", {}, "Increment ", increment),
  h("label", {}, variant), h("label", {}, color),
  h("label.check", {}, rated, " rated"), h("label", {}, "Rating ", low, "–", high),
  h("button.primary", { type: "submit" }, "Seek"),
  h("button", { type: "button", onclick: () => runShown(session, "unseek") }, "Withdraw my seeks"));
  container.append(h("h3", {}, "Quick game"), quick, h("details.custom-seek", {}, h("summary", {}, "Custom game"), form));
}
