// The bidding family's move controls (the picker's shell is moves.js): a row of quantities
// (pick one) and a row of faces (click one to bid), only legal combinations enabled, each
// face with its odds when the odds are on; show-and-reroll: click your dice to pick which to
// show; the calls and every other move: buttons.

import { fill, h } from "./dom.js";
import { die, faceName, faceWords } from "./dice.js";
import { _ } from "./i18n.js";
import { groupMoves, multiset, pickedMove } from "./pickers.js";

/** @typedef {import("./types.js").BidMove} BidMove */
/** @typedef {import("./types.js").ButtonWords} ButtonWords */
/** @typedef {import("./types.js").Family} Family */
/** @typedef {import("./types.js").LegalEntry} LegalEntry */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").PickDie} PickDie */
/** @typedef {import("./types.js").ShowMove} ShowMove */
/** @typedef {import("./types.js").TableState} TableState */

const ZONE_HAND = { key: "hand", label: "", mine: true };

/**
 * The bidding family's buttons: [text, class, aria-label of the bid to beat].
 * @type {Record<string, ButtonWords>}
 */
const BUTTONS = {
  exact: [_("Exact!"), "call", (cur) => _("Call exact: exactly {bid}", { bid: cur })],
  "no-show": [_("Don't show"), "", () => _("Show no dice")],
  buy: [_("Buy a die"), "", () => _("Buy a die")],
  "ask turn": [_("Ask whose turn it is (costs a die)"), "", () => _("Ask whose turn it is: costs a die")],
  "ask count": [_("Ask how many dice are left (costs a die)"), "", () => _("Ask how many dice are left: costs a die")],
};

/**
 * Which control a legal move goes to (by its structured move).
 * @param {Move} move
 */
const category = (move) => (move.kind === "bid" || move.kind === "show" ? move.kind : "button");

/**
 * A button move's key in the buttons' tables ("liar", "exact", "no-show", "buy").
 * @param {Move} move
 */
const buttonKey = (move) => (move.kind === "call" ? move.call : move.kind === "no_show" ? "no-show" : move.kind);

export class BiddingControls {
  /**
   * `family`: the bidding family's object (its notation and odds); `picker`: the MovePicker.
   * @param {Family} family
   * @param {import("./moves.js").MovePicker} picker
   */
  constructor(family, picker) {
    this.family = family;
    this.picker = picker;
    /** @type {number | undefined} */
    this.qty = undefined; // the quantity picked, kept while the bid to beat stands
    this.qtyGame = "";
  }

  /**
   * @param {TableState} S
   * @param {string} cur the bid to beat in words
   */
  build(S, cur) {
    this.S = S;
    const groups = groupMoves(S.view.legal, (m) => category(m.move));
    return [
      this.picker.buttons(groups.get("button") || [], cur, BUTTONS, buttonKey),
      groups.get("bid") ? this.bidGrid(groups.get("bid")) : null,
      groups.get("show") ? this.showPicker(groups.get("show")) : null,
    ];
  }

  /** @param {LegalEntry[]} bids */
  bidGrid(bids) {
    const S = this.S;
    /** @type {Map<number, Map<number, LegalEntry>>} quantity -> face -> the bid */
    const byQty = new Map();
    for (const entry of bids) {
      const b = /** @type {BidMove} */ (entry.move);
      if (!byQty.has(b.quantity)) byQty.set(b.quantity, new Map());
      byQty.get(b.quantity).set(b.face, entry);
    }
    this.byQty = byQty;
    const qs = [...byQty.keys()].sort((a, b) => a - b);
    const faces = (S.room.rules && S.room.rules.faces) || Math.max(6, ...bids.map((m) => /** @type {BidMove} */ (m.move).face));
    const wild = S.room.rules ? S.room.rules.wild : null;
    // Start on the least quantity with a bid on a face that isn't wild (the usual raise).
    const plain = qs.find((q) => [...byQty.get(q).keys()].some((f) => f !== wild));
    if (this.qty === undefined || !byQty.has(this.qty) || this.qtyGame !== `${S.view.game_no}/${S.view.round}/${S.view.bids.length}`) {
      this.qty = plain ?? qs[0];
      this.qtyGame = `${S.view.game_no}/${S.view.round}/${S.view.bids.length}`;
    }
    const lo = qs[0];
    const hi = qs[qs.length - 1];
    const qtyButtons = [];
    for (let q = lo; q <= hi; q++) {
      const ok = byQty.has(q);
      qtyButtons.push(
        h("button", {
          type: "button",
          role: "radio",
          class: "qty",
          id: `qty-${q}`,
          "data-qty": q,
          "aria-checked": q === this.qty ? "true" : "false",
          tabindex: q === this.qty ? "0" : "-1",
          disabled: !ok,
          text: String(q),
          onclick: () => this.pickQty(q),
        }),
      );
    }
    this.qtyRow = h("div", { class: "qty-row", role: "radiogroup", "aria-labelledby": "qty-label", onkeydown: (ev) => this.qtyKey(ev) }, qtyButtons);
    this.faceRow = h("div", { class: "face-row", role: "group", "aria-labelledby": "face-label" });
    this.faces = faces;
    this.fillFaces();
    for (const move of bids) this.picker.placed.add(move.action);
    return h(
      "div",
      { class: "bid-grid" },
      h("div", { class: "grid-line" }, h("span", { class: "row-label", id: "qty-label", text: _("How many?") }), this.qtyRow),
      h("div", { class: "grid-line" }, h("span", { class: "row-label", id: "face-label", text: _("Of which face? Click to bid.") }), this.faceRow),
    );
  }

  /** @param {number} q */
  pickQty(q, focus = false) {
    if (!this.byQty.has(q)) return;
    this.qty = q;
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (this.qtyRow.querySelectorAll("button.qty"))) {
      const on = Number(b.dataset.qty) === q;
      b.setAttribute("aria-checked", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
      if (on && focus) b.focus();
    }
    this.fillFaces();
  }

  /** @param {KeyboardEvent} ev */
  qtyKey(ev) {
    const qs = [...this.byQty.keys()].sort((a, b) => a - b);
    const i = qs.indexOf(this.qty);
    /** @type {Record<string, number>} */
    const keys = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: qs.length - 1 };
    const to = keys[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    this.pickQty(qs[Math.max(0, Math.min(qs.length - 1, to))], true);
  }

  fillFaces() {
    const legal = this.byQty.get(this.qty) || new Map();
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focusedFace = active && active.dataset ? active.dataset.bidFace : undefined;
    const buttons = [];
    for (let f = 1; f <= this.faces; f++) {
      const move = legal.get(f);
      const odds = move ? this.family.oddsPercent(this.S, move) : null;
      buttons.push(
        h(
          "button",
          {
            type: "button",
            class: "face",
            id: `face-${f}`,
            "data-bid-face": f,
            "data-move": move ? move.text : null,
            disabled: !move,
            "aria-label": odds ? _("Bid {quantity} {faces}, {odds} likely", { quantity: this.qty, faces: faceWords(f, this.qty), odds }) : _("Bid {quantity} {faces}", { quantity: this.qty, faces: faceWords(f, this.qty) }),
            onclick: () => move && this.picker.move(move),
          },
          die(f, { glyph: true }),
          odds ? h("span", { class: "face-odds", "aria-hidden": "true", text: odds }) : null,
        ),
      );
    }
    fill(this.faceRow, buttons);
    if (focusedFace !== undefined) {
      const again = /** @type {HTMLElement | null} */ (this.faceRow.querySelector(`[data-bid-face="${focusedFace}"]:not(:disabled)`));
      if (again) again.focus();
    }
  }

  /**
   * Show-and-reroll: pick dice to show; the rest are re-rolled.
   * @param {LegalEntry[]} moves
   */
  showPicker(moves) {
    const S = this.S;
    const byKey = new Map(moves.map((m) => [multiset(/** @type {ShowMove} */ (m.move).dice), m]));
    for (const m of moves) this.picker.placed.add(m.action);
    /** @type {PickDie[]} */
    const dice = S.view.my_dice.map((f) => ({ face: f, picked: false, zone: ZONE_HAND, src: "mine", label: "" }));
    const sel = { mode: "show", title: _("Your dice"), caption: _("Click dice to show them to everyone; the others are re-rolled. Then you raise."), dice };
    const [picker] = this.picker.dicePicker("show-button", sel, () => pickedMove(byKey, dice), (m) => {
      const picked = dice.filter((d) => d.picked);
      dice.forEach((d) => (d.label = d.picked ? _("{face}: will be shown", { face: faceName(d.face) }) : _("{face}: stays hidden", { face: faceName(d.face) })));
      return picked.length === 0 ? _("Pick dice to show") : m ? _("Show {shown} and re-roll {rolled}", { shown: picked.length, rolled: dice.length - picked.length }) : _("Keep at least one die hidden");
    });
    return picker;
  }
}
