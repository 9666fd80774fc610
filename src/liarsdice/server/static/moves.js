// The move picker, built from the view's `legal` list only (each move's `action` integer is
// what is sent; its structured `move` lays it out, docs/PROTOCOL.md "Moves"). The picker is the
// shell every family shares: the sentence about the bid to beat, the buttons, the dice you
// click to pick some, the "Your move" fieldset; the family's own controls (family.js's
// `controls`: the bidding grid, the poker claim builder, the show-and-reroll and poker dice
// pickers) are laid out by its module. Every legal move is reachable: anything a family's
// layout doesn't place becomes a plain button.

import { h, fill } from "./dom.js";
import { _, parts as withNodes } from "./i18n.js";
import { familyOf } from "./family.js";
import { capital, myTurn } from "./facts.js";

/** @typedef {import("./types.js").ButtonWords} ButtonWords */
/** @typedef {import("./types.js").Controls} Controls */
/** @typedef {import("./types.js").LegalEntry} LegalEntry */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").Selection} Selection */
/** @typedef {import("./types.js").TableState} TableState */

/**
 * Buttons every family may offer: [text, class, aria-label of the bid to beat].
 * @type {Record<string, ButtonWords>}
 */
const BUTTONS = {
  liar: [_("Liar!"), "call", (cur) => _("Call liar: {bid} is too high", { bid: cur })],
};

export class MovePicker {
  /**
   * `section` is shown on the player's turn; `body` (a fieldset) holds the controls.
   * @param {HTMLElement} section
   * @param {HTMLFieldSetElement} body
   * @param {{onMove: (move: LegalEntry) => void, onSelection: () => void}} callbacks
   */
  constructor(section, body, { onMove, onSelection }) {
    this.section = section;
    this.body = body;
    this.onMove = onMove;
    this.onSelection = onSelection;
    this.signature = "";
    /** @type {TableState | null} */
    this.S = null;
    /** @type {Selection | null} */
    this.sel = null; // the dice selection the tray draws
    /** @type {Controls | null} */
    this.controls = null; // the family's controls (a room's family never changes)
    /** @type {Set<number>} the actions the family's controls lay out */
    this.placed = new Set();
  }

  /** @param {TableState} S */
  update(S) {
    this.S = S;
    const show = myTurn(S);
    this.section.hidden = !show;
    if (!show) {
      if (this.signature) {
        this.signature = "";
        this.sel = null;
        fill(this.body);
      }
      return;
    }
    const sig = `${S.view.game_no}|${S.view.round}|${S.seat}|${S.view.legal.map((m) => m.action).join(",")}|${S.oddsOn}`;
    if (sig !== this.signature) {
      this.signature = sig;
      this.build(S);
    }
    this.body.disabled = Boolean(S.pending);
  }

  /** The dice selection for the tray, or null. */
  selection() {
    return this.sel;
  }

  /** @param {LegalEntry} m */
  move(m) {
    this.onMove(m);
  }

  /** @param {TableState} S */
  build(S) {
    const family = familyOf(S);
    this.controls ??= family.controls(this);
    this.placed = new Set();
    this.sel = null;
    const cur = S.view.current_bid_move ? family.bidWords(S.view.current_bid_move) : "";
    /** @type {import("./dom.js").Child[]} */
    const parts = [h("legend", { class: "visually-hidden", text: _("Your move") })];
    if (S.view.current_bid_move) parts.push(h("p", { class: "move-context", id: "move-context" }, withNodes(family.moveContext(S), { bid: h("strong", { text: cur }) })));
    parts.push(...this.controls.build(S, cur));
    fill(this.body, parts);
    this.onSelection();
  }

  /**
   * The moves as a row of buttons, or null for none: `table` has the family's own buttons by
   * `keyOf(move)` ("exact", "accept"...); a move no table has is a button saying the move.
   * @param {LegalEntry[]} moves
   * @param {string} cur the bid to beat in words
   * @param {Record<string, ButtonWords>} table
   * @param {(move: Move) => string} keyOf
   */
  buttons(moves, cur, table, keyOf) {
    if (!moves.length) return null;
    const family = familyOf(this.S);
    const all = { ...BUTTONS, ...table };
    return h(
      "div",
      { class: "move-buttons" },
      moves.map((move) => {
        const words = () => capital(family.moveWords(move.move));
        /** @type {ButtonWords} */
        const [text, cls, aria] = all[keyOf(move.move)] || [words(), "", words];
        return h("button", { type: "button", class: cls, "data-move": move.text, "aria-label": aria(cur), text, onclick: () => this.move(move) });
      }),
    );
  }

  /**
   * Dice you click to pick some (the families' pickers): ``sel`` is the tray's selection
   * (mode, title, caption, dice; null: no die to click), ``chosen()`` the move the picks make
   * (null: none yet), ``update(m)`` relabels the dice and returns the button's text. Returns
   * the picker (``extra`` before its button) and the function that redraws it.
   * @param {string} id the button's
   * @param {Selection | null} sel
   * @param {() => LegalEntry | null} chosen
   * @param {(m: LegalEntry | null) => string} update
   * @param {HTMLElement | null} [extra]
   * @returns {[HTMLElement, () => void]}
   */
  dicePicker(id, sel, chosen, update, extra = null) {
    const button = h("button", { type: "button", id, class: "primary", onclick: () => chosen() && this.move(chosen()) });
    const refresh = () => {
      const m = chosen();
      button.disabled = !m;
      button.textContent = update(m);
      this.onSelection();
    };
    /** @param {number} i */
    const toggle = (i) => {
      const d = sel.dice[i];
      if (d.onpick) d.onpick(); // a die that stands for a choice of its own (the cup's shake)
      else d.picked = !d.picked;
      refresh();
    };
    this.sel = sel && { ...sel, toggle };
    refresh();
    return [h("div", { class: "picker" }, extra, button), refresh];
  }
}
