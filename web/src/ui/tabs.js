// A row of tabs over panels; a tab may be closed and may show that something new came.
import { h } from "./dom.js";

export function createTabs(container, { className = "" } = {}) {
  const bar = h("div.tab-bar", { role: "tablist" });
  const panels = h("div.tab-panels");
  container.append(h(`div.tabs${className ? `.${className}` : ""}`, {}, bar, panels));
  const tabs = new Map(); // id -> {button, panel, onClose}
  let current = null;

  function select(id) {
    if (!tabs.has(id)) return;
    current = id;
    for (const [key, tab] of tabs) {
      const on = key === id;
      tab.button.classList.toggle("active", on);
      tab.button.setAttribute("aria-selected", on ? "true" : "false");
      tab.panel.hidden = !on;
      if (on) tab.button.classList.remove("unread");
    }
  }

  function add(id, label, panel, { closable = false, onClose = null } = {}) {
    if (tabs.has(id)) return tabs.get(id).panel;
    const button = h("button.tab", { type: "button", role: "tab", dataset: { tab: id }, onclick: () => select(id) },
      h("span.tab-label", {}, label));
    if (closable) {
      button.append(h("span.tab-close", {
        title: "close",
        onclick: (event) => {
          event.stopPropagation();
          remove(id);
          onClose?.();
        },
      }, "×"));
    }
    panel.hidden = true;
    panel.setAttribute("role", "tabpanel");
    bar.append(button);
    panels.append(panel);
    tabs.set(id, { button, panel });
    if (current === null) select(id);
    return panel;
  }

  function remove(id) {
    const tab = tabs.get(id);
    if (!tab) return;
    tab.button.remove();
    tab.panel.remove();
    tabs.delete(id);
    if (current === id) {
      current = null;
      const next = tabs.keys().next();
      if (!next.done) select(next.value);
    }
  }

  /** Mark a tab that is not shown as having something new. */
  function notify(id) {
    const tab = tabs.get(id);
    if (tab && current !== id) tab.button.classList.add("unread");
  }

  return { select, add, remove, notify };
}
