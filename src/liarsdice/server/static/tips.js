// The first-game walkthrough: a few short tips shown on the table of a room made with "Play
// your first game", one at a time, each when it becomes useful. Each can be dismissed ("Got
// it") and all of them turned off; what was dismissed is remembered.

import { loadPref, savePref } from "./api.js";
import { changed, fill, h } from "./dom.js";
import { _ } from "./i18n.js";
import { familyOf } from "./family.js";
import { myTurn } from "./facts.js";

/** @typedef {import("./types.js").TableState} TableState */
/** @typedef {import("./types.js").Tip} Tip */

// The tips every family shows (each family adds its own: family.js's `tips`), in `order`.
/** @type {Tip[]} */
const TIPS = [
  {
    id: "liar",
    order: 30,
    when: (S) => myTurn(S) && (S.view.legal || []).some((m) => m.move.kind === "call" && m.move.call === "liar"),
    text: _("Each bid must beat the last one: more dice, or the same number of a higher face. If you think the bid to beat is too high, call “Liar!”."),
  },
  {
    id: "reveal",
    order: 40,
    when: (S) => S.view && (S.view.results || []).length > 0,
    text: _("After a call the cups are lifted and the dice that count light up. Whoever was wrong loses dice. The game log on the side keeps every bid."),
  },
  {
    id: "over",
    order: 70,
    when: (S) => S.room.status === "finished",
    text: _("That's a game! Ask for a rematch, or go back to the lobby to make your own room and invite friends with its link."),
  },
];

/**
 * The room's tips, the shared ones and its family's, in order.
 * @param {TableState} S
 */
const tipsFor = (S) => [...TIPS, ...familyOf(S).tips].sort((a, b) => a.order - b.order);

export class Tips {
  /**
   * @param {HTMLElement} el
   * @param {boolean} enabled
   */
  constructor(el, enabled) {
    this.el = el;
    this.enabled = enabled;
    /** @type {Set<string>} the tips dismissed */
    this.done = new Set(loadPref("tips-done", []));
  }

  /** @param {TableState} S */
  render(S) {
    const off = !this.enabled || loadPref("tips-off", false);
    const tip = off ? null : tipsFor(S).find((t) => !this.done.has(t.id) && t.when(S));
    if (!tip) {
      this.el.hidden = true;
      fill(this.el);
      changed(this.el, ""); // (the next tip is drawn)
      return;
    }
    this.el.hidden = false;
    if (!changed(this.el, tip.id)) return;
    fill(
      this.el,
      h("p", { class: "tip-text" }, h("strong", { text: _("Tip: ") }), tip.text),
      h(
        "div",
        { class: "tip-actions" },
        h("button", { type: "button", class: "small primary", id: "tip-ok", text: _("Got it"), onclick: () => this.dismiss(tip.id, S) }),
        h("button", { type: "button", class: "small", id: "tip-off", text: _("No more tips"), onclick: () => this.off(S) }),
      ),
    );
  }

  /**
   * @param {string} id
   * @param {TableState} S
   */
  dismiss(id, S) {
    this.done.add(id);
    savePref("tips-done", [...this.done]);
    this.render(S);
  }

  /** @param {TableState} S */
  off(S) {
    savePref("tips-off", true);
    this.render(S);
  }
}
