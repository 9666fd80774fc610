// The move picker, built from the view's `legal` list only (each move's `action` integer is
// what is sent; its `text` notation is only read to lay the moves out):
//   * bids: a row of quantities (pick one) and a row of faces (click one to bid), only legal
//     combinations enabled; poker hands: kind, then rank, then the hand;
//   * show-and-reroll: click your dice to pick which to show;
//   * poker dice: click dice to move them between the cup and outside, to roll them, or to
//     keep them;
//   * calls and every other move: buttons.
// Every legal move is reachable: anything the layouts don't place becomes a plain button.

import { fill, h } from "./dom.js";
import { die, faceName, faceWords } from "./dice.js";
import { _, ngettext, parts as withNodes, pgettext } from "./i18n.js";
import { parseBid } from "./odds.js";
import { POKER_CATEGORIES, bidLabel, describeMove, pokerCategory, pokerRank, pokerTokens, pokerWords } from "./words.js";
import { isPoker, myTurn, nameOf, oddsPercent } from "./table.js";

const ZONES = {
  hand: { key: "hand", label: "", mine: true },
  cup: { key: "cup", label: _("Under the cup"), mine: true },
  outside: { key: "outside", label: _("Outside the cup (everyone sees)"), mine: false },
  fixed: { key: "fixed", label: _("Under the cup"), mine: true },
};

/** Sorted multiset key of faces: [5, 1, 5] -> "1,5,5"; poker faces by rank. */
function multiset(faces, poker) {
  const sorted = [...faces].map(String).sort((a, b) => (poker ? pokerRank(a) - pokerRank(b) : Number(a) - Number(b)));
  return sorted.join(",");
}

function tokensAfter(text, prefix, sep) {
  const rest = text.slice(prefix.length).trim();
  return rest ? rest.split(sep).map((x) => x.trim()).filter(Boolean) : [];
}

/** Which control a legal move goes to. */
function category(text, poker) {
  if (!poker) {
    if (/^\d+x\d+$/.test(text)) return "bid";
    if (text.startsWith("show ")) return "show";
    return "button";
  }
  if (["liar", "accept", "left", "right"].includes(text)) return "button";
  if (text.startsWith("out ")) return "out";
  if (text === "no reroll" || text === "shake" || text.startsWith("shake reroll ") || text.startsWith("reroll ")) return "roll";
  if (text.startsWith("keep ")) return "keep";
  if (pokerCategory(text)) return "bid";
  return "button";
}

const BUTTONS = {
  liar: [_("Liar!"), "call", (cur) => _("Call liar: {bid} is too high", { bid: cur })],
  exact: [_("Exact!"), "call", (cur) => _("Call exact: exactly {bid}", { bid: cur })],
  accept: [_("Accept the cup"), "primary", (cur) => _("Accept the cup and {bid}", { bid: cur })],
  left: [_("Pass left ⟲"), "", () => _("Pass the cup to the left")],
  right: [_("Pass right ⟳"), "", () => _("Pass the cup to the right")],
  "no-show": [_("Don't show"), "", () => _("Show no dice")],
  buy: [_("Buy a die"), "", () => _("Buy a die")],
  "ask turn": [_("Ask whose turn it is (costs a die)"), "", () => _("Ask whose turn it is: costs a die")],
  "ask count": [_("Ask how many dice are left (costs a die)"), "", () => _("Ask how many dice are left: costs a die")],
};

export class MovePicker {
  /** `section` is shown on the player's turn; `body` (a fieldset) holds the controls. */
  constructor(section, body, { onMove, onSelection }) {
    this.section = section;
    this.body = body;
    this.onMove = onMove;
    this.onSelection = onSelection;
    this.signature = "";
    this.S = null;
    this.sel = null; // the dice selection the tray draws
  }

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

  move(m) {
    this.onMove(m);
  }

  build(S) {
    const poker = isPoker(S);
    const groups = new Map();
    for (const move of S.view.legal) {
      const cat = category(move.text, poker);
      if (!groups.has(cat)) groups.set(cat, []);
      groups.get(cat).push(move);
    }
    this.placed = new Set();
    this.sel = null;
    const cur = S.view.current_bid ? bidLabel(S.view.current_bid) : "";
    const parts = [h("legend", { class: "visually-hidden", text: _("Your move") })];
    if (S.view.current_bid) {
      const by = S.view.bidder === S.seat ? _("Bid to beat: {bid} by you") : _("Bid to beat: {bid} by {name}", { name: nameOf(S, S.view.bidder) });
      parts.push(h("p", { class: "move-context" }, withNodes(by, { bid: h("strong", { text: cur }) })));
    }
    const buttons = (groups.get("button") || []).map((move) => this.button(move, cur));
    if (buttons.length) parts.push(h("div", { class: "move-buttons" }, buttons));
    if (groups.get("bid")) parts.push(poker ? this.pokerBids(groups.get("bid")) : this.bidGrid(groups.get("bid")));
    if (groups.get("show")) parts.push(this.showPicker(groups.get("show")));
    if (groups.get("out")) parts.push(this.arrangePicker(groups.get("out")));
    if (groups.get("roll")) parts.push(this.rollPicker(groups.get("roll")));
    if (groups.get("keep")) parts.push(this.keepPicker(groups.get("keep")));
    fill(this.body, parts);
    this.onSelection();
  }

  button(move, cur) {
    const [text, cls, aria] = BUTTONS[move.text] || [capital(describeMove(move.text)), "", () => capital(describeMove(move.text))];
    return h("button", {
      type: "button",
      class: cls,
      "data-move": move.text,
      "aria-label": aria(cur),
      text,
      onclick: () => this.move(move),
    });
  }

  // ------------------------------------------------------------ bidding family: the grid

  bidGrid(bids) {
    const S = this.S;
    const byQty = new Map();
    for (const move of bids) {
      const b = parseBid(move.text);
      if (!byQty.has(b.quantity)) byQty.set(b.quantity, new Map());
      byQty.get(b.quantity).set(b.face, move);
    }
    this.byQty = byQty;
    const qs = [...byQty.keys()].sort((a, b) => a - b);
    const faces = (S.room.rules && S.room.rules.faces) || Math.max(6, ...bids.map((m) => parseBid(m.text).face));
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
    for (const move of bids) this.placed.add(move.action);
    return h(
      "div",
      { class: "bid-grid" },
      h("div", { class: "grid-line" }, h("span", { class: "row-label", id: "qty-label", text: _("How many?") }), this.qtyRow),
      h("div", { class: "grid-line" }, h("span", { class: "row-label", id: "face-label", text: _("Of which face? Click to bid.") }), this.faceRow),
    );
  }

  pickQty(q, focus = false) {
    if (!this.byQty.has(q)) return;
    this.qty = q;
    for (const b of this.qtyRow.querySelectorAll("button.qty")) {
      const on = Number(b.dataset.qty) === q;
      b.setAttribute("aria-checked", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
      if (on && focus) b.focus();
    }
    this.fillFaces();
  }

  qtyKey(ev) {
    const qs = [...this.byQty.keys()].sort((a, b) => a - b);
    const i = qs.indexOf(this.qty);
    const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: qs.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    this.pickQty(qs[Math.max(0, Math.min(qs.length - 1, to))], true);
  }

  fillFaces() {
    const legal = this.byQty.get(this.qty) || new Map();
    const focusedFace = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.bidFace : undefined;
    const buttons = [];
    for (let f = 1; f <= this.faces; f++) {
      const move = legal.get(f);
      const text = `${this.qty}x${f}`;
      const odds = move ? oddsPercent(this.S, text) : null;
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
            onclick: () => move && this.move(move),
          },
          die(f, { glyph: true }),
          odds ? h("span", { class: "face-odds", "aria-hidden": "true", text: odds }) : null,
        ),
      );
    }
    fill(this.faceRow, buttons);
    if (focusedFace !== undefined) {
      const again = this.faceRow.querySelector(`[data-bid-face="${focusedFace}"]:not(:disabled)`);
      if (again) again.focus();
    }
  }

  // ------------------------------------------------------------ poker dice: hands

  pokerBids(bids) {
    const cats = new Map();
    for (const move of bids) {
      const c = pokerCategory(move.text);
      if (!cats.has(c)) cats.set(c, []);
      cats.get(c).push(move);
      this.placed.add(move.action);
    }
    this.pokerCats = cats;
    // Start on the kind of hand bid last (raising within it is the usual move), else a pair.
    const cur = this.S.view.current_bid ? pokerCategory(this.S.view.current_bid) : null;
    this.pokerCat = [cur, "pair", "high"].find((c) => c && cats.has(c)) || pokerCategory(bids[0].text);
    this.pokerRankSel = null;
    this.catRow = h(
      "div",
      { class: "cat-row", role: "radiogroup", "aria-labelledby": "cat-label" },
      POKER_CATEGORIES.filter(([c]) => cats.has(c)).map(([c, label]) =>
        h("button", { type: "button", role: "radio", class: "cat", "data-cat": c, "aria-checked": c === this.pokerCat ? "true" : "false", text: label, onclick: () => this.pickCat(c) }),
      ),
    );
    this.rankRow = h("div", { class: "rank-row", role: "radiogroup", "aria-labelledby": "rank-label" });
    this.handRow = h("div", { class: "hand-row", role: "group", "aria-labelledby": "hand-label" });
    const grid = h(
      "div",
      { class: "bid-grid poker-grid" },
      h("div", { class: "grid-line" }, h("span", { class: "row-label", id: "cat-label", text: _("Claim a hand:") }), this.catRow),
      h("div", { class: "grid-line", id: "rank-line" }, h("span", { class: "row-label", id: "rank-label", text: _("Of which rank?") }), this.rankRow),
      h("div", { class: "grid-line" }, h("span", { class: "row-label", id: "hand-label", text: _("Click a hand to bid:") }), this.handRow),
    );
    this.fillPoker();
    return grid;
  }

  pickCat(c) {
    this.pokerCat = c;
    this.pokerRankSel = null;
    for (const b of this.catRow.children) b.setAttribute("aria-checked", b.dataset.cat === c ? "true" : "false");
    this.fillPoker();
  }

  fillPoker() {
    const moves = this.pokerCats.get(this.pokerCat) || [];
    const ranks = [...new Set(moves.map((m) => pokerTokens(m.text)[0]).filter(Boolean))];
    ranks.sort((a, b) => pokerRank(a) - pokerRank(b));
    const line = this.rankRow.parentElement;
    if (line) line.hidden = ranks.length === 0;
    if (ranks.length && !ranks.includes(this.pokerRankSel)) this.pokerRankSel = ranks[0];
    fill(
      this.rankRow,
      ranks.map((r) =>
        h("button", {
          type: "button",
          role: "radio",
          class: "rank",
          "data-rank": r,
          "aria-checked": r === this.pokerRankSel ? "true" : "false",
          "aria-label": faceName(r),
          onclick: () => {
            this.pokerRankSel = r;
            this.fillPoker();
          },
        }, die(r, { glyph: true })),
      ),
    );
    const hands = ranks.length ? moves.filter((m) => pokerTokens(m.text)[0] === this.pokerRankSel) : moves;
    fill(
      this.handRow,
      hands.map((m) => h("button", { type: "button", class: "hand", "data-move": m.text, text: capital(pokerWords(m.text) || m.text), onclick: () => this.move(m) })),
    );
  }

  // ------------------------------------------------------------ dice you click

  /**
   * Dice you click to pick some (the four pickers below): ``sel`` is the tray's selection
   * (mode, title, caption, dice; null: no die to click), ``chosen()`` the move the picks make
   * (null: none yet), ``update(m)`` relabels the dice and returns the button's text. Returns
   * the picker (``extra`` before its button) and the function that redraws it.
   */
  dicePicker(id, sel, chosen, update, extra = null) {
    const button = h("button", { type: "button", id, class: "primary", onclick: () => chosen() && this.move(chosen()) });
    const refresh = () => {
      const m = chosen();
      button.disabled = !m;
      button.textContent = update(m);
      this.onSelection();
    };
    const toggle = (i) => {
      sel.dice[i].picked = !sel.dice[i].picked;
      refresh();
    };
    this.sel = sel && { ...sel, toggle };
    refresh();
    return [h("div", { class: "picker" }, extra, button), refresh];
  }

  /** Show-and-reroll: pick dice to show; the rest are re-rolled. */
  showPicker(moves) {
    const S = this.S;
    const byKey = new Map(moves.map((m) => [multiset(tokensAfter(m.text, "show ", ","), false), m]));
    for (const m of moves) this.placed.add(m.action);
    const dice = S.view.my_dice.map((f) => ({ face: f, picked: false, zone: ZONES.hand, src: "mine", label: "" }));
    const sel = { mode: "show", title: _("Your dice"), caption: _("Click dice to show them to everyone; the others are re-rolled. Then you raise."), dice };
    const [picker] = this.dicePicker("show-button", sel, () => pickedMove(byKey, dice, false), (m) => {
      const picked = dice.filter((d) => d.picked);
      dice.forEach((d) => (d.label = d.picked ? _("{face}: will be shown", { face: faceName(d.face) }) : _("{face}: stays hidden", { face: faceName(d.face) })));
      return picked.length === 0 ? _("Pick dice to show") : m ? _("Show {shown} and re-roll {rolled}", { shown: picked.length, rolled: dice.length - picked.length }) : _("Keep at least one die hidden");
    });
    return picker;
  }

  /** Poker: arrange the five dice between the cup and outside. */
  arrangePicker(moves) {
    const S = this.S;
    const byKey = new Map(moves.map((m) => [m.text === "out none" ? "" : multiset(tokensAfter(m.text, "out ", " "), true), m]));
    for (const m of moves) this.placed.add(m.action);
    const dice = [
      ...S.view.cup.map((f) => ({ face: f, out: false })),
      ...S.view.outside.map((f) => ({ face: f, out: true })),
    ].map((d) => ({ ...d, picked: d.out, zone: d.out ? ZONES.outside : ZONES.cup, src: d.out ? "outside" : "cup", label: "" }));
    const sel = { mode: "arrange", title: _("Arrange the dice"), caption: _("Click a die to move it between the cup and the table. Dice outside are seen by everyone."), dice };
    const [picker] = this.dicePicker("arrange-button", sel, () => pickedMove(byKey, dice, true), (m) => {
      dice.forEach((d) => {
        d.zone = d.picked ? ZONES.outside : ZONES.cup;
        d.src = d.picked ? "outside" : "cup";
        d.label = d.picked ? _("{face}, outside the cup: click to put it under", { face: faceName(d.face) }) : _("{face}, under the cup: click to put it outside", { face: faceName(d.face) });
      });
      const out = dice.filter((d) => d.picked).length;
      return m ? (out ? _("Done: {out} outside, {under} under the cup", { out, under: dice.length - out }) : _("Done: every die under the cup")) : _("Leave at least one die under the cup");
    });
    return picker;
  }

  /** Poker: shake the cup and/or roll dice outside it. */
  rollPicker(moves) {
    const S = this.S;
    const key = (shake, faces) => `${shake ? "S" : "-"}|${multiset(faces, true)}`;
    const byKey = new Map();
    for (const m of moves) {
      this.placed.add(m.action);
      const t = m.text;
      if (t === "no reroll") byKey.set(key(false, []), m);
      else if (t === "shake") byKey.set(key(true, []), m);
      else if (t.startsWith("shake reroll ")) byKey.set(key(true, tokensAfter(t, "shake reroll ", " ")), m);
      else byKey.set(key(false, tokensAfter(t, "reroll ", " ")), m);
    }
    const canShake = moves.some((m) => m.text.startsWith("shake"));
    let shake = false;
    let refresh = null;
    const dice = [
      ...S.view.outside.map((f) => ({ face: f, picked: false, zone: ZONES.outside, src: "outside", label: "" })),
    ];
    // Shaking is a choice that goes with the roll, not a move of its own: a checkbox.
    const shakeBox = canShake
      ? h("input", { type: "checkbox", id: "shake-toggle", "aria-describedby": "shake-hint", onchange: (ev) => { shake = ev.currentTarget.checked; refresh(); } })
      : null;
    const shakeButton = canShake
      ? h(
          "div",
          { class: "toggle shake-toggle" },
          shakeBox,
          h("label", { for: "shake-toggle", text: _("Shake the cup") }),
          h("span", { class: "hint", id: "shake-hint", text: ` ${_("(re-rolls the dice under it, unseen)")}` }),
        )
      : null;
    const chosen = () => byKey.get(key(shake, dice.filter((d) => d.picked).map((d) => d.face))) || null;
    const sel = dice.length ? { mode: "roll", title: pgettext("heading", "Roll"), caption: _("Click dice outside the cup to roll them in view."), dice } : null;
    const update = () => {
      dice.forEach((d) => (d.label = d.picked ? _("{face}, outside: will be rolled", { face: faceName(d.face) }) : _("{face}, outside: stays", { face: faceName(d.face) })));
      if (shakeBox) shakeBox.checked = shake;
      const n = dice.filter((d) => d.picked).length;
      return !shake && !n ? _("Roll nothing") : shake && n ? _("Roll the cup and {n} outside", { n }) : shake ? _("Roll the cup") : _("Roll {n} outside", { n });
    };
    let picker;
    [picker, refresh] = this.dicePicker("roll-button", sel, chosen, update, shakeButton);
    return picker;
  }

  /** Poker: five-of-a-kind attempts: keep some dice and roll the rest. */
  keepPicker(moves) {
    const S = this.S;
    const byKey = new Map(moves.map((m) => [m.text === "keep none" ? "" : multiset(tokensAfter(m.text, "keep ", " "), true), m]));
    for (const m of moves) this.placed.add(m.action);
    const dice = S.view.outside.map((f) => ({ face: f, picked: false, zone: ZONES.outside, src: "outside", label: "" }));
    const sel = { mode: "keep", title: _("Make five of a kind"), caption: _("Click the dice to keep; the others are rolled."), dice };
    const [picker] = this.dicePicker("keep-button", sel, () => pickedMove(byKey, dice, true), (m) => {
      dice.forEach((d) => (d.label = d.picked ? _("{face}: kept", { face: faceName(d.face) }) : _("{face}: will be rolled", { face: faceName(d.face) })));
      const n = dice.filter((d) => d.picked).length;
      return m ? _("Keep {kept}, roll {rolled}", { kept: n, rolled: dice.length - n }) : _("Roll at least one die");
    });
    return picker;
  }
}

/** The move of the picked dice in ``byKey`` (by the multiset of their faces). */
function pickedMove(byKey, dice, sorted) {
  return byKey.get(multiset(dice.filter((d) => d.picked).map((d) => d.face), sorted)) || null;
}

function capital(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
