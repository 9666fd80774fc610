// The first-game walkthrough: a few short tips shown on the table of a room made with "Play
// your first game", one at a time, each when it becomes useful. Each can be dismissed ("Got
// it") and all of them turned off; what was dismissed is remembered.

import { loadPref, savePref } from "./api.js";
import { fill, h } from "./dom.js";
import { _ } from "./i18n.js";
import { isPoker, myTurn } from "./table.js";

// Rules that surprise newcomers, by preset (a room's rule changes override them).
const option = (S, name) => (S.room.options ? S.room.options[name] : undefined);
const DIFFERENCE = new Set(["classic", "milton-bradley", "house-rules"]);
const EXACT_ALL = new Set(["classic", "milton-bradley"]);
const losesDifference = (S) => (option(S, "loss") !== undefined ? option(S, "loss") === "difference" : DIFFERENCE.has(S.room.preset));
const exactHitsAll = (S) => (option(S, "exact_count") !== undefined ? String(option(S, "exact_count")).startsWith("all-but-bidder") : EXACT_ALL.has(S.room.preset));
const hadResult = (S) => Boolean(S.view && (S.view.results || []).length > 0);

const TIPS = [
  {
    id: "dice",
    when: (S) => S.view && S.room.status === "playing" && S.seat !== null && !isPoker(S) && (S.view.my_dice || []).length > 0,
    text: _("These are your dice. Only you can see them: everyone else has dice hidden under their cups too."),
  },
  {
    id: "bid",
    when: (S) => myTurn(S) && !isPoker(S) && (S.view.legal || []).some((m) => /^\d+x\d+$/.test(m.text)),
    text: _("Your turn. A bid is about all the dice on the table, not just yours: “3 × fives” means at least three dice show a five. Pick how many, then click a face. Ones are wild: they count as any face."),
  },
  {
    id: "liar",
    when: (S) => myTurn(S) && (S.view.legal || []).some((m) => m.text === "liar"),
    text: _("Each bid must beat the last one: more dice, or the same number of a higher face. If you think the bid to beat is too high, call “Liar!”."),
  },
  {
    id: "reveal",
    when: (S) => S.view && (S.view.results || []).length > 0,
    text: _("After a call the cups are lifted and the dice that count light up. Whoever was wrong loses dice. The game log on the side keeps every bid."),
  },
  {
    id: "difference",
    when: (S) => !isPoker(S) && hadResult(S) && losesDifference(S),
    text: _("In these rules a wrong call costs more than one die: whoever was wrong loses as many dice as the bid was off by. Bid 6 × fours when there are 3, and a “Liar!” costs you 3 dice."),
  },
  {
    id: "exact",
    when: (S) => !isPoker(S) && hadResult(S) && exactHitsAll(S),
    text: _("If the count is exactly the bid, the bid stands and everyone but the bidder loses a die: even players who took no part in the call."),
  },
  {
    id: "over",
    when: (S) => S.room.status === "finished",
    text: _("That's a game! Ask for a rematch, or go back to the lobby to make your own room and invite friends with its link."),
  },
];

export class Tips {
  constructor(el, enabled) {
    this.el = el;
    this.enabled = enabled;
    this.done = new Set(loadPref("tips-done", []));
  }

  render(S) {
    const off = !this.enabled || loadPref("tips-off", false);
    const tip = off ? null : TIPS.find((t) => !this.done.has(t.id) && t.when(S));
    if (!tip) {
      this.el.hidden = true;
      fill(this.el);
      this.el.__sig = "";
      return;
    }
    this.el.hidden = false;
    if (this.el.__sig === tip.id) return;
    this.el.__sig = tip.id;
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

  dismiss(id, S) {
    this.done.add(id);
    savePref("tips-done", [...this.done]);
    this.render(S);
  }

  off(S) {
    savePref("tips-off", true);
    this.render(S);
  }
}
