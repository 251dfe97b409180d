// Small DOM helpers for the game's views.

/** An element: el("div", {class: "x", text: "hi", onclick}, ...children). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

export function button(label, onClick, attrs = {}) {
  return el("button", { type: "button", text: label, onclick: onClick, ...attrs });
}

/** "GM Name (2500)" parts of a player: titles, name, rating ("----" unrated). */
export function playerLabel(p) {
  const titles = (p.titles || "").trim();
  return {
    titles: titles ? titles.replace(/[()]/g, "").split(/\s+/).join(" ") : "",
    name: p.name,
    rating: p.rating > 0 ? String(p.rating) : "",
  };
}
